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

// The level the records' roofs are measured against (WorkRecord::peak_memory_bandwidth: main
// memory on GPUs and TPUs, the SRAM arena on a microcontroller): its index in memory_levels, the
// farthest of equal bandwidth; -1 when no level has that bandwidth.
int reference_level(const RunResult& r, double bandwidth) {
  for (std::size_t i = std::min(r.memory_levels.size(), r.memory_level_bandwidth.size()); i-- > 0;)
    if (r.memory_level_bandwidth[i] == bandwidth) return int(i);
  return -1;
}

// The other levels with a peak bandwidth (RunResult::memory_level_bandwidth), near → far, as
// (name, bytes/s): every level but the reference one (or, without one, but main memory).
std::vector<std::pair<std::string, double>> other_levels(const RunResult& r, int reference) {
  std::vector<std::pair<std::string, double>> out;
  std::size_t n = std::min(r.memory_levels.size(), r.memory_level_bandwidth.size());
  for (std::size_t i = 0; i < n; ++i) {
    bool skip = reference >= 0 ? int(i) == reference : i + 1 == r.memory_levels.size();
    if (!skip && r.memory_level_bandwidth[i] > 0) out.push_back({r.memory_levels[i], r.memory_level_bandwidth[i]});
  }
  return out;
}

// A memory roof's slope label, written along the slope halfway (in log space) between where it
// enters the plot and its ridge.
void slope_label(svg::Canvas& c, const svg::Axis& x, const svg::Axis& y, double bandwidth, double start, double ridge,
                 const std::string& text) {
  double mid = std::sqrt(start * ridge);
  double x1 = x.map(start), y1 = y.map(start * bandwidth), x2 = x.map(ridge), y2 = y.map(ridge * bandwidth);
  double angle = std::atan2(y2 - y1, x2 - x1) * 180 / M_PI;
  c.text(x.map(mid), y.map(mid * bandwidth) - 5, text, "middle", 10, angle, "#555");
}

// The roof of one other memory level: its slope from where it enters the plot up to
// the highest compute roof (`top`, of dtype `top_dtype`), the ridge there dashed, labelled.
void level_roof(svg::Canvas& c, const svg::Axis& x, const svg::Axis& y, const std::string& level, double bandwidth,
                 double top, const std::string& top_dtype) {
  double ridge = top / bandwidth, start = std::max(x.lo(), y.lo() / bandwidth);
  if (ridge <= start) return;  // the whole slope lies left of the plot
  double end = std::min(ridge, x.hi());  // a level slower than main memory may meet the roof right of the plot
  c.line(x.map(start), y.map(start * bandwidth), x.map(end), y.map(end * bandwidth), "#8c8c8c", 1.2, "6 3");
  if (ridge <= x.hi()) c.line(x.map(ridge), y.map(top), x.map(ridge), y.map(y.lo()), "#c8c8c8", 1, "2 3");
  slope_label(c, x, y, bandwidth, start, end,
              fmt::format("{} {}B/s, ridge {:.3g} at {}", level, svg::short_number(bandwidth), ridge, top_dtype));
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
  svg::Canvas c(760, 454);
  svg::Frame f;
  f.bottom = 59;  // room for the note on what places the points
  if (records.empty() || bandwidth <= 0) {
    c.text(c.width() / 2, c.height() / 2, "roofline: no record with FLOPs and bytes to place", "middle", 13);
    return c.str();
  }
  // the axis spans every point and every ridge (a quarter decade-ish of slope left of the nearest)
  double top_peak = 0;
  for (const auto& [dtype, peak] : peaks) {
    x_hi = std::max(x_hi, peak / bandwidth), x_lo = std::min(x_lo, peak / bandwidth / 4), y_hi = std::max(y_hi, peak);
    top_peak = std::max(top_peak, peak);
  }
  int reference = reference_level(r, bandwidth);
  auto others = other_levels(r, reference);
  for (const auto& [level, level_bandwidth] : others) x_lo = std::min(x_lo, top_peak / level_bandwidth / 4);
  svg::Axis x(x_lo, x_hi * 2, f.left, c.width() - f.right, true);
  svg::Axis y(y_lo, y_hi * 1.5, c.height() - f.bottom, f.top, true);
  std::string main = reference >= 0 ? r.memory_levels[std::size_t(reference)]
                     : r.memory_levels.empty() ? "memory" : r.memory_levels.back();
  svg::draw_axes(c, f, x, y, fmt::format("Roofline: {} {}s ({} memory roof {}B/s)", records.size(), r.unit, main,
                                         svg::short_number(bandwidth)),
                 "arithmetic intensity (FLOP/byte of minimum traffic)", "achieved FLOP/s");
  c.text(f.left, c.height() - 24, "Points sit at the intensity of their minimum traffic (inputs read once, outputs written "
         "once); every level's roof is drawn against that axis.", "start", 10, 0, "#666");
  double start = std::max(x.lo(), y.lo() / bandwidth), top = 0;
  std::string top_dtype;
  for (const auto& [dtype, peak] : peaks) {
    double ridge = peak / bandwidth;
    c.polyline({{x.map(start), y.map(start * bandwidth)}, {x.map(ridge), y.map(peak)}, {x.map(x.hi()), y.map(peak)}},
               "#333", 1.5);
    c.line(x.map(ridge), y.map(peak), x.map(ridge), y.map(y.lo()), "#999", 1, "4 3");
    c.text(x.map(x.hi()) - 4, y.map(peak) - 4, fmt::format("{} peak {}FLOP/s, ridge {:.3g}", dtype,
                                                          svg::short_number(peak), ridge), "end", 10);
    if (peak > top) top = peak, top_dtype = dtype;
  }
  if (top / bandwidth > start)
    slope_label(c, x, y, bandwidth, start, top / bandwidth, fmt::format("{} {}B/s", main, svg::short_number(bandwidth)));
  for (const auto& [level, level_bandwidth] : others) level_roof(c, x, y, level, level_bandwidth, top, top_dtype);
  std::vector<std::string> classes;
  for (const auto* k : records) {
    if (std::find(classes.begin(), classes.end(), k->op_class) == classes.end()) classes.push_back(k->op_class);
    c.circle(x.map(k->arithmetic_intensity), y.map(k->achieved_flop_rate), 3, svg::category_colour(k->op_class),
             fmt::format("{} ({}, {}): {:.3g} FLOP/B, {}FLOP/s, {}, {}-bound", k->name, k->op_class, k->dtype,
                         k->arithmetic_intensity, svg::short_number(k->achieved_flop_rate),
                         svg::duration(k->seconds), k->bound));
  }
  svg::draw_legend(c, f, classes);
  if (total > records.size())
    c.text(f.left + 6, c.height() - f.bottom - 6, fmt::format("{} of {} records drawn (evenly sampled)", records.size(), total), "start", 10);
  return c.str();
}

}  // namespace hwsim
