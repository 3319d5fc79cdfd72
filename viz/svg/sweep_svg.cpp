#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

std::string sweep_svg(const std::string& title, const std::string& x_label, const std::string& y_label,
                      const std::vector<SweepSeries>& series, bool log_x) {
  svg::Canvas c(760, 440);
  svg::Frame f;
  double x_lo = 1e300, x_hi = -1e300, y_hi = 0;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_hi = std::max(y_hi, y);
  if (x_hi < x_lo) {
    c.text(c.width() / 2, c.height() / 2, "sweep: no point to draw", "middle", 13);
    return c.str();
  }
  svg::Axis x(x_lo, x_hi, f.left, c.width() - f.right, log_x && x_lo > 0);
  svg::Axis y(0, y_hi * 1.05, c.height() - f.bottom, f.top, false);
  svg::draw_axes(c, f, x, y, title, x_label, y_label);
  std::vector<std::string> names, colours;
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::vector<std::pair<double, double>> pixels;
    for (const auto& [px, py] : series[i].points) pixels.push_back({x.map(px), y.map(py)});
    c.polyline(pixels, svg::colour(i), 2);
    for (std::size_t p = 0; p < pixels.size(); ++p)
      c.circle(pixels[p].first, pixels[p].second, 3, svg::colour(i),
               fmt::format("{}{}{} = {}: {} = {:.6g}", series[i].name, series[i].name.empty() ? "" : ", ", x_label,
                           svg::short_number(series[i].points[p].first), y_label, series[i].points[p].second));
    names.push_back(series[i].name), colours.push_back(svg::colour(i));
  }
  if (series.size() > 1) svg::draw_legend(c, f, names, colours);  // drawn in colour(i), not by name
  return c.str();
}

}  // namespace hwsim
