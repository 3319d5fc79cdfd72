// Power over time (RunResult::power.trace): the device's average power in each bucket of the run
// as a step line, the power limit dashed, and the SM clock as a second line on its own scale
// (right-hand labels) when the device reports one.
#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
// A step line through the buckets: flat over each [start, end).
std::vector<std::pair<double, double>> steps(const std::vector<PowerSample>& trace, const svg::Axis& x,
                                             const svg::Axis& y, double PowerSample::*field) {
  std::vector<std::pair<double, double>> out;
  for (const auto& s : trace) {
    out.push_back({x.map(s.start), y.map(s.*field)});
    out.push_back({x.map(s.end), y.map(s.*field)});
  }
  return out;
}
}  // namespace

std::string power_svg(const RunResult& r) {
  svg::Canvas c(760, 360);
  svg::Frame f;
  f.right = 70;
  const auto& trace = r.power.trace;
  if (trace.empty()) {
    c.text(c.width() / 2, c.height() / 2, "power over time: no record to draw", "middle", 13);
    return c.str();
  }
  double top = r.tdp;
  for (const auto& s : trace) top = std::max(top, s.watts);
  svg::Axis x(0, trace.back().end, f.left, c.width() - f.right, false);
  svg::Axis y(0, top * 1.1, c.height() - f.bottom, f.top, false);
  svg::draw_axes(c, f, x, y, "Power over time", "time (s)", "power (W)");
  if (r.tdp > 0) {
    c.line(f.left, y.map(r.tdp), c.width() - f.right, y.map(r.tdp), "#b22", 1.2, "6,4");
    c.text(c.width() - f.right - 4, y.map(r.tdp) - 4, fmt::format("limit {} W", svg::short_number(r.tdp)), "end", 10, 0, "#b22");
  }
  c.polyline(steps(trace, x, y, &PowerSample::watts), svg::colour(0), 1.8);
  std::vector<std::string> names = {"power"};
  if (r.power.max_clock > 0) {  // the clock on [0, max clock], labelled on the right
    svg::Axis clock(0, r.power.max_clock * 1.1, c.height() - f.bottom, f.top, false);
    std::vector<PowerSample> with_clock;
    for (const auto& s : trace)
      if (s.clock > 0) with_clock.push_back(s);
    c.polyline(steps(with_clock, x, clock, &PowerSample::clock), svg::colour(1), 1.4);
    for (double t : clock.ticks())
      c.text(c.width() - f.right + 6, clock.map(t) + 4, svg::short_number(t) + "Hz", "start", 10, 0, svg::colour(1));
    names.push_back("SM clock (right)");
  }
  svg::draw_legend(c, f, names);
  return c.str();
}

}  // namespace hwsim
