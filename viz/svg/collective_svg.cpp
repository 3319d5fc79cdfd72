// A run of collectives alone (SystemMetrics::collectives): bus and algorithm bandwidth against the
// message size, the curve nccl-tests prints, one point per size.
#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

std::string collective_svg(const SystemMetrics& m) {
  svg::Canvas c(760, 340);
  svg::Frame f;
  const auto& points = m.collectives;
  if (points.empty()) {
    c.text(c.width() / 2, c.height() / 2, "collectives: none ran alone", "middle", 13);
    return c.str();
  }
  double lo = points.front().bytes, hi = points.front().bytes, top = 1;
  for (const auto& p : points) lo = std::min(lo, p.bytes), hi = std::max(hi, p.bytes), top = std::max(top, p.busbw / 1e9);
  for (const auto& p : points) top = std::max(top, p.algbw / 1e9);
  svg::Axis x(lo, std::max(hi, lo * 10), f.left, c.width() - f.right, true);
  svg::Axis y(0, top * 1.15, c.height() - f.bottom, f.top, false);
  svg::draw_axes(c, f, x, y,
                 fmt::format("{} among {:g} ranks: bandwidth against size", points.front().op, points.front().ranks),
                 "message size (bytes, nccl-tests' size)", "GB/s");
  for (const char* series : {"busbw", "algbw"}) {
    const bool bus = std::string(series) == "busbw";
    std::vector<std::pair<double, double>> line;
    for (const auto& p : points) line.push_back({x.map(p.bytes), y.map((bus ? p.busbw : p.algbw) / 1e9)});
    c.polyline(line, svg::category_colour(series), 2);
    for (std::size_t i = 0; i < points.size(); ++i)
      c.circle(line[i].first, line[i].second, 3, svg::category_colour(series),
               fmt::format("{} B: {} {:.1f} GB/s in {} ({})", svg::short_number(points[i].bytes), series,
                           (bus ? points[i].busbw : points[i].algbw) / 1e9, svg::duration(points[i].seconds),
                           points[i].algorithm));
  }
  svg::draw_legend(c, f, {"busbw", "algbw"});
  return c.str();
}

}  // namespace hwsim
