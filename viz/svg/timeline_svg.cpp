#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {
namespace {

// Records on the run's timeline (steps one after another), merged per device where consecutive
// records of one class meet within half a pixel: a long run stays a few thousand rectangles.
struct Bar {
  int device;
  std::string op_class, tip;
  double start, end;
  std::size_t records = 0;
};

std::vector<Bar> bars_of(const RunResult& r, double seconds_per_pixel, std::size_t& total) {
  std::vector<Bar> bars;
  std::vector<std::size_t> open;  // per device: its last bar, or npos
  double offset = 0;
  for (const auto& s : r.steps) {
    for (const auto& k : s.records) {
      ++total;
      if (std::size_t(k.device) >= open.size()) open.resize(std::size_t(k.device) + 1, std::string::npos);
      std::size_t& last = open[std::size_t(k.device)];
      double a = offset + k.start, b = offset + k.end;
      if (last != std::string::npos && bars[last].op_class == k.op_class && a <= bars[last].end + seconds_per_pixel / 2) {
        bars[last].end = std::max(bars[last].end, b);
        ++bars[last].records;
        continue;
      }
      last = bars.size();
      bars.push_back({k.device, k.op_class, k.name, a, b, 1});
    }
    offset += s.seconds;
  }
  return bars;
}

// A row's name: a pipeline stage's label, else the device.
std::string row_name(const RunResult& r, int d) {
  if (r.system.present && std::size_t(d) < r.system.stages.size()) return r.system.stages[std::size_t(d)].label;
  return fmt::format("device {}", d);
}

// The classes drawn, each in its category colour, in rows of five under the time axis.
void class_legend(svg::Canvas& c, const svg::Frame& f, const std::vector<std::string>& classes, double top) {
  for (std::size_t i = 0; i < classes.size(); ++i) {
    double x = f.left + 120 * double(i % 5), y = top + 16 * double(i / 5);
    c.rect(x, y - 8, 9, 9, svg::category_colour(classes[i]));
    c.text(x + 12, y, classes[i], "start", 10);
  }
}

}  // namespace

std::string timeline_svg(const RunResult& r) {
  svg::Canvas probe(760, 100);
  svg::Frame f;
  f.left = 130;
  const double end = r.seconds > 0 ? r.seconds : 1;
  std::size_t total = 0;
  std::vector<Bar> bars = bars_of(r, end / (probe.width() - f.left - f.right), total);
  int devices = r.system.present ? std::max<int>(1, int(r.system.stages.size())) : 1;
  for (const auto& b : bars) devices = std::max(devices, b.device + 1);
  std::vector<std::string> classes;
  for (const auto& b : bars)
    if (std::find(classes.begin(), classes.end(), b.op_class) == classes.end()) classes.push_back(b.op_class);
  const double row = 22, legend = 16 * double((classes.size() + 4) / 5);
  svg::Canvas c(760, 82 + row * devices + legend);
  f.bottom = 46 + legend;  // the time axis, its label, then the legend
  svg::TimeUnit unit = svg::time_unit(end);
  svg::Axis x(0, end, f.left, c.width() - f.right, false);
  svg::Axis y(0, devices, f.top, c.height() - f.bottom, false);
  std::string title = total == 0 && r.steps.size() > 1 ? "Timeline (the run kept no records: --html keeps them)"
                                                         : fmt::format("Timeline: {} {}s", total, r.unit);
  c.text(c.width() / 2, 18, title, "middle", 13);
  for (double t : x.ticks()) {
    c.line(x.map(t), f.top, x.map(t), c.height() - f.bottom, "#e6e6e6");
    c.text(x.map(t), c.height() - f.bottom + 14, fmt::format("{:g}", t / unit.seconds), "middle", 10);
  }
  c.text((f.left + c.width() - f.right) / 2, c.height() - f.bottom + 28, "time (" + unit.name + ")", "middle", 11);
  for (int d = 0; d < devices; ++d) c.text(f.left - 6, y.map(d) + row * 0.65, row_name(r, d), "end", 10);
  for (const auto& b : bars)
    c.rect(x.map(b.start), y.map(b.device) + 3, std::max(x.map(b.end) - x.map(b.start), 0.5), row - 6,
           svg::category_colour(b.op_class),
           b.records == 1 ? fmt::format("{} ({}): {} from {}", b.tip, b.op_class, svg::duration(b.end - b.start),
                                        svg::duration(b.start))
                          : fmt::format("{} {} {}s from {} ({} to {})", b.records, b.op_class, r.unit, b.tip,
                                        svg::duration(b.start), svg::duration(b.end)));
  class_legend(c, f, classes, c.height() - legend + 6);
  return c.str();
}

}  // namespace hwsim
