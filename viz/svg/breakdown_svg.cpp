#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

namespace {
// One horizontal bar of named parts (seconds), its share written on each part wide enough.
void stacked_bar(svg::Canvas& c, double y, const std::string& label,
                 const std::vector<std::pair<std::string, double>>& parts) {
  double total = 0;
  for (const auto& [name, s] : parts) total += s;
  const double x0 = 150, width = c.width() - x0 - 20, height = 26;
  c.text(x0 - 8, y + 17, label, "end", 11);
  double x = x0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    double w = total > 0 ? width * parts[i].second / total : 0;
    double share = total > 0 ? 100 * parts[i].second / total : 0;
    c.rect(x, y, w, height, svg::category_colour(parts[i].first),
           fmt::format("{}: {} ({:.1f} %)", parts[i].first, svg::duration(parts[i].second), share));
    if (w > 70) c.text(x + 4, y + 17, fmt::format("{} {:.0f}%", parts[i].first, share), "start", 10, 0, "white");
    x += w;
  }
}
}  // namespace

std::string breakdown_svg(const RunResult& r) {
  bool by_class = r.llm.present && !r.llm.by_class.empty();
  svg::Canvas c(760, by_class ? 110 : 70);
  c.text(c.width() / 2, 18,
         fmt::format("Where the time went ({}{})", svg::duration(r.seconds),
                     r.devices > 1 ? fmt::format(", one device's average of {:g}", r.devices) : ""),
         "middle", 13);
  const TimeBreakdown& b = r.breakdown;
  stacked_bar(c, 34, "by activity", {{"compute", b.compute}, {"memory", b.memory}, {"communication", b.communication},
                                     {"overhead", b.overhead}, {"idle", b.idle}});
  if (by_class) {
    std::vector<std::pair<std::string, double>> parts;
    for (const auto& [name, t] : r.llm.by_class) parts.push_back({name, t.seconds});
    stacked_bar(c, 74, "by op class", parts);
  }
  return c.str();
}

}  // namespace hwsim
