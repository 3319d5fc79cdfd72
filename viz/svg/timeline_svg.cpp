#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

std::string timeline_svg(const RunResult& r) {
  struct Bar {
    const WorkRecord* k;
    double start, end;
  };
  std::vector<Bar> bars;
  std::size_t total = 0;
  int devices = 1;
  double offset = 0;  // a step's records are timed from the step's start; steps follow one another
  for (const auto& s : r.steps) {
    for (const auto& k : s.records) {
      ++total;
      devices = std::max(devices, k.device + 1);
      if (bars.size() < kMaxChartRecords) bars.push_back({&k, offset + k.start, offset + k.end});
    }
    offset += s.seconds;
  }
  const double row = 22;
  svg::Canvas c(760, 100 + row * devices);
  svg::Frame f;
  f.left = 90;
  f.bottom = 62;  // the time axis, its label, then the legend
  double end = bars.empty() ? r.seconds : std::max_element(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
    return a.end < b.end; })->end;
  svg::Axis x(0, end > 0 ? end : 1, f.left, c.width() - f.right, false);
  svg::Axis y(0, devices, f.top, c.height() - f.bottom, false);
  std::string title = total > bars.size() ? fmt::format("Timeline: the first {} of {} {}s", bars.size(), total, r.unit)
                                          : fmt::format("Timeline: {} {}s", total, r.unit);
  c.text(c.width() / 2, 18, title, "middle", 13);
  for (double t : x.ticks()) {
    c.line(x.map(t), f.top, x.map(t), c.height() - f.bottom, "#e6e6e6");
    c.text(x.map(t), c.height() - f.bottom + 14, svg::short_number(t), "middle", 10);
  }
  c.text((f.left + c.width() - f.right) / 2, c.height() - f.bottom + 28, "seconds", "middle", 11);
  for (int d = 0; d < devices; ++d) {
    std::string name = r.system.present && std::size_t(d) < r.system.stages.size() ? r.system.stages[std::size_t(d)].label
                                                                                  : fmt::format("device {}", d);
    c.text(f.left - 6, y.map(d) + row * 0.65, name, "end", 10);
  }
  std::vector<std::string> classes;
  for (const auto& b : bars) {
    auto it = std::find(classes.begin(), classes.end(), b.k->op_class);
    std::size_t i = std::size_t(it - classes.begin());
    if (it == classes.end()) classes.push_back(b.k->op_class);
    c.rect(x.map(b.start), y.map(b.k->device) + 3, std::max(x.map(b.end) - x.map(b.start), 0.5), row - 6,
           svg::colour(i), fmt::format("{} ({}): {}s from {}s", b.k->name, b.k->op_class,
                                       svg::short_number(b.end - b.start), svg::short_number(b.start)));
  }
  for (std::size_t i = 0; i < classes.size(); ++i) {
    c.rect(f.left + 110 * double(i), c.height() - 18, 9, 9, svg::colour(i));
    c.text(f.left + 110 * double(i) + 12, c.height() - 10, classes[i], "start", 10);
  }
  return c.str();
}

}  // namespace hwsim
