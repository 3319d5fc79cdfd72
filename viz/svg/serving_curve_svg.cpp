// A serving sweep's latency-throughput curve (viz/svg/charts.h). Formats only.
#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {
namespace {

// One chart: `which` latency (p50 solid, p99 dashed) against output tokens/s, a line per curve.
std::string latency_chart(const std::string& x_key, const std::vector<ServingCurve>& curves, const char* which,
                          double ServingCurvePoint::*p50, double ServingCurvePoint::*p99) {
  svg::Canvas c(760, 360);
  svg::Frame f;
  double x_hi = 0, y_hi = 0;
  for (const auto& curve : curves)
    for (const auto& p : curve.points) x_hi = std::max(x_hi, p.throughput), y_hi = std::max(y_hi, p.*p99);
  if (x_hi <= 0 || y_hi <= 0) {
    c.text(c.width() / 2, c.height() / 2, fmt::format("{}: no point to draw", which), "middle", 13);
    return c.str();
  }
  svg::TimeUnit unit = svg::time_unit(y_hi * 1.05);
  svg::Axis x(0, x_hi * 1.05, f.left, c.width() - f.right, false);
  svg::Axis y(0, y_hi * 1.05 / unit.seconds, c.height() - f.bottom, f.top, false);
  svg::draw_axes(c, f, x, y, fmt::format("{} against throughput, p50 (solid) and p99 (dashed), each point its {}",
                                         which, x_key),
                 "output tokens/s", fmt::format("{} ({})", which, unit.name));
  std::vector<std::string> names, colours;
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const std::string& colour = svg::colour(i);
    std::vector<std::pair<double, double>> solid;
    for (std::size_t k = 0; k < curves[i].points.size(); ++k) {
      const ServingCurvePoint& p = curves[i].points[k];
      double px = x.map(p.throughput), y50 = y.map(p.*p50 / unit.seconds), y99 = y.map(p.*p99 / unit.seconds);
      solid.push_back({px, y50});
      if (k > 0) {
        const ServingCurvePoint& q = curves[i].points[k - 1];
        c.line(x.map(q.throughput), y.map(q.*p99 / unit.seconds), px, y99, colour, 1.5, "5,4");
      }
      std::string tip = fmt::format("{}{}{} = {}: {:.0f} output tokens/s, {} p50 {}, p99 {}", curves[i].name,
                                    curves[i].name.empty() ? "" : ", ", x_key, svg::short_number(p.x), p.throughput,
                                    which, svg::duration(p.*p50), svg::duration(p.*p99));
      c.circle(px, y50, 3.5, colour, tip);
      c.circle(px, y99, 2.5, colour, tip);
      c.text(px + 5, y50 - 5, svg::short_number(p.x), "start", 9, 0, "#555");
    }
    c.polyline(solid, colour, 2);
    names.push_back(curves[i].name), colours.push_back(colour);
  }
  if (curves.size() > 1) svg::draw_legend(c, f, names, colours);
  return c.str();
}

}  // namespace

std::string serving_curve_svg(const std::string& x_key, const std::vector<ServingCurve>& curves) {
  return svg::stack({latency_chart(x_key, curves, "TTFT", &ServingCurvePoint::ttft_p50, &ServingCurvePoint::ttft_p99),
                     latency_chart(x_key, curves, "TPOT", &ServingCurvePoint::tpot_p50, &ServingCurvePoint::tpot_p99)});
}

}  // namespace hwsim
