// Power over time (RunResult::power.trace): the device's average power in each bucket of the run
// as a step line against the power limit (dashed) and the idle power (dotted); below it, on its own
// panel and scale, the SM clock the governor set, when the device reports one.
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

// A dashed horizontal line across the plot with its label at the right.
void level(svg::Canvas& c, const svg::Frame& f, double py, const std::string& label, const std::string& colour,
           const std::string& dash) {
  c.line(f.left, py, c.width() - f.right, py, colour, 1.2, dash);
  c.text(c.width() - f.right - 4, py - 4, label, "end", 10, 0, colour);
}

std::string format_clock(double hz) { return fmt::format("{:.3g} GHz", hz / 1e9); }

// The SM clock in its own band under the power plot, [0, max clock].
void clock_panel(svg::Canvas& c, const svg::Frame& f, const svg::Axis& x, const RunResult& r, double top,
                 double bottom) {
  svg::Axis clock(0, r.power.max_clock, bottom, top, false);
  std::vector<PowerSample> with_clock;
  for (const auto& s : r.power.trace)
    if (s.clock > 0) with_clock.push_back(s);
  for (double t : clock.ticks()) {
    c.line(f.left, clock.map(t), c.width() - f.right, clock.map(t), "#e6e6e6");
    c.text(f.left - 5, clock.map(t) + 3, fmt::format("{:g}", t / 1e9), "end", 10);
  }
  c.line(f.left, bottom, c.width() - f.right, bottom, "#444");
  c.line(f.left, bottom, f.left, top, "#444");
  level(c, f, clock.map(r.power.max_clock), fmt::format("max {}", format_clock(r.power.max_clock)), "#888", "2,3");
  c.polyline(steps(with_clock, x, clock, &PowerSample::clock), svg::category_colour("SM clock"), 1.6);
  c.text(14, (top + bottom) / 2, "SM clock (GHz)", "middle", 11, -90);
}
}  // namespace

std::string power_svg(const RunResult& r) {
  const auto& trace = r.power.trace;
  const bool clocked = r.power.max_clock > 0 && std::any_of(trace.begin(), trace.end(), [](const PowerSample& s) {
    return s.clock > 0;
  });
  svg::Canvas c(760, clocked ? 440 : 330);
  svg::Frame f;
  f.bottom = clocked ? 155 : 45;  // the clock's band sits between the power plot and the time axis
  if (trace.empty()) {
    c.text(c.width() / 2, c.height() / 2, "power over time: no record to draw", "middle", 13);
    return c.str();
  }
  double top = std::max(r.tdp, r.idle_power);
  for (const auto& s : trace) top = std::max(top, s.watts);
  svg::TimeUnit unit = svg::time_unit(trace.back().end);
  svg::Axis x(0, trace.back().end, f.left, c.width() - f.right, false);
  svg::Axis y(0, top * 1.15, c.height() - f.bottom, f.top, false);
  std::string title = r.devices > 1 ? fmt::format("Power over time (one device's average of {:g})", r.devices)
                                    : std::string("Power over time");
  svg::draw_axes(c, f, x, y, title, clocked ? "" : "time", "power (W)", &unit);
  if (r.tdp > 0) level(c, f, y.map(r.tdp), fmt::format("limit {} W", svg::short_number(r.tdp)), "#b22222", "6,4");
  if (r.idle_power > 0) level(c, f, y.map(r.idle_power), fmt::format("idle {} W", svg::short_number(r.idle_power)), "#777", "2,3");
  c.polyline(steps(trace, x, y, &PowerSample::watts), svg::category_colour("power"), 1.8);
  if (!clocked) return c.str();
  clock_panel(c, f, x, r, c.height() - f.bottom + 30, c.height() - 45);
  for (double t : x.ticks()) c.text(x.map(t), c.height() - 45 + 14, fmt::format("{:g}", t / unit.seconds), "middle", 10);
  c.text((f.left + c.width() - f.right) / 2, c.height() - 8, "time (" + unit.name + ")", "middle", 11);
  return c.str();
}

}  // namespace hwsim
