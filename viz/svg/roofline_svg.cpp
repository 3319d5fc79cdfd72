#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
// The records a roofline can place (FLOPs and bytes above zero), evenly sampled down to the cap.
std::vector<const WorkRecord*> placeable(const RunResult& r, std::size_t& total) {
  std::vector<const WorkRecord*> all;
  for (const auto& s : r.steps)
    for (const auto& k : s.records)
      if (k.flops > 0 && k.min_bytes > 0 && k.achieved_flop_rate > 0) all.push_back(&k);
  total = all.size();
  if (all.size() <= kMaxChartRecords) return all;
  std::vector<const WorkRecord*> sample;
  for (std::size_t i = 0; i < kMaxChartRecords; ++i) sample.push_back(all[i * all.size() / kMaxChartRecords]);
  return sample;
}
}  // namespace

std::string roofline_svg(const RunResult& r) {
  std::size_t total = 0;
  auto records = placeable(r, total);
  std::map<std::string, double> peaks;  // dtype → peak FLOP/s (each record carries its dtype's)
  double bandwidth = r.peak_memory_bandwidth, x_lo = 1e9, x_hi = 0, y_lo = 1e30, y_hi = 0;
  for (const auto* k : records) {
    peaks[k->dtype] = k->peak_flop_rate;
    if (k->peak_memory_bandwidth > 0) bandwidth = k->peak_memory_bandwidth;
    x_lo = std::min(x_lo, k->arithmetic_intensity), x_hi = std::max(x_hi, k->arithmetic_intensity);
    y_lo = std::min(y_lo, k->achieved_flop_rate), y_hi = std::max(y_hi, k->achieved_flop_rate);
  }
  svg::Canvas c(760, 440);
  svg::Frame f;
  if (records.empty() || bandwidth <= 0) {
    c.text(c.width() / 2, c.height() / 2, "roofline: no record with FLOPs and bytes to place", "middle", 13);
    return c.str();
  }
  for (const auto& [dtype, peak] : peaks) x_hi = std::max(x_hi, peak / bandwidth), y_hi = std::max(y_hi, peak);
  svg::Axis x(x_lo, x_hi * 2, f.left, c.width() - f.right, true);
  svg::Axis y(y_lo, y_hi * 1.5, c.height() - f.bottom, f.top, true);
  std::string main = r.memory_levels.empty() ? "memory" : r.memory_levels.back();
  svg::draw_axes(c, f, x, y, fmt::format("Roofline: {} {}s ({} memory roof {}B/s)", records.size(), r.unit, main,
                                         svg::short_number(bandwidth)),
                 "arithmetic intensity (FLOP/byte of minimum traffic)", "achieved FLOP/s");
  for (const auto& [dtype, peak] : peaks) {
    double ridge = peak / bandwidth;
    double start = std::max(x.lo(), y.lo() / bandwidth);
    c.polyline({{x.map(start), y.map(start * bandwidth)}, {x.map(ridge), y.map(peak)}, {x.map(x.hi()), y.map(peak)}},
               "#333", 1.5);
    c.line(x.map(ridge), y.map(peak), x.map(ridge), y.map(y.lo()), "#999", 1, "4 3");
    c.text(x.map(x.hi()) - 4, y.map(peak) - 4, fmt::format("{} peak {}FLOP/s, ridge {:.3g}", dtype,
                                                          svg::short_number(peak), ridge), "end", 10);
  }
  std::vector<std::string> classes;
  for (const auto* k : records) {
    auto it = std::find(classes.begin(), classes.end(), k->op_class);
    std::size_t i = std::size_t(it - classes.begin());
    if (it == classes.end()) classes.push_back(k->op_class);
    c.circle(x.map(k->arithmetic_intensity), y.map(k->achieved_flop_rate), 3, svg::colour(i),
             fmt::format("{} ({}, {}): {:.3g} FLOP/B, {}FLOP/s, {}s, {}-bound", k->name, k->op_class, k->dtype,
                         k->arithmetic_intensity, svg::short_number(k->achieved_flop_rate),
                         svg::short_number(k->seconds), k->bound));
  }
  svg::draw_legend(c, f, classes);
  if (total > records.size())
    c.text(f.left + 6, c.height() - f.bottom - 6, fmt::format("{} of {} records drawn (evenly sampled)", records.size(), total), "start", 10);
  return c.str();
}

}  // namespace hwsim
