#include "app/sweep/sweep_plot.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <map>

#include "app/sweep/sweep_row.h"
#include "sim/error.h"
#include "sim/units.h"
#include "viz/svg/charts.h"

namespace hwsim {

namespace {
// Every ok row as column → text.
std::vector<std::map<std::string, std::string>> read_rows(const std::string& path, SweepFormat format,
                                                          const std::vector<std::string>& columns) {
  std::vector<std::map<std::string, std::string>> rows;
  std::ifstream in(path);
  std::string line;
  for (bool first = true; std::getline(in, line); first = false) {
    if (line.empty() || (format == SweepFormat::csv && first)) continue;
    std::map<std::string, std::string> row;
    if (format == SweepFormat::csv) {
      auto cells = split_csv_line(line);
      for (std::size_t i = 0; i < cells.size() && i < columns.size(); ++i) row[columns[i]] = cells[i];
    } else {
      for (const auto& [k, v] : nlohmann::json::parse(line).items()) row[k] = v.is_string() ? v.get<std::string>() : v.dump();
    }
    if (row["status"] == "ok") rows.push_back(std::move(row));
  }
  return rows;
}

double as_number(const std::string& text) {
  auto q = parse_quantity(text);
  return q ? q->value : 0;
}

// A row's series name: the varied keys other than `x_key`, with their values.
std::string series_name(const SweepSpec& spec, const std::string& x_key, std::map<std::string, std::string>& row) {
  std::string name;
  for (const auto& a : spec.axes)
    if (a.key != x_key) name += (name.empty() ? "" : ", ") + a.key + "=" + row[a.key];
  return name;
}

// A serving sweep's picture: TTFT and TPOT against the throughput each point reached.
std::string serving_plot(const SweepSpec& spec, std::vector<std::map<std::string, std::string>>& rows,
                         const std::string& x_key) {
  std::map<std::string, ServingCurve> by_name;
  std::vector<std::string> order;
  auto number = [](const std::string& cell) { return cell.empty() ? 0.0 : std::stod(cell); };
  for (auto& row : rows) {
    std::string name = series_name(spec, x_key, row);
    if (!by_name.count(name)) order.push_back(name), by_name[name].name = name;
    by_name[name].points.push_back({as_number(row[x_key]), number(row["tokens_per_second"]), number(row["ttft_p50"]),
                                    number(row["ttft_p99"]), number(row["tpot_p50"]), number(row["tpot_p99"])});
  }
  std::vector<ServingCurve> curves;
  for (const auto& name : order) {
    ServingCurve c = by_name[name];
    std::sort(c.points.begin(), c.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
    curves.push_back(std::move(c));
  }
  return serving_curve_svg(x_key, curves);
}
}  // namespace

std::string sweep_plot(const SweepSpec& spec, const std::string& rows_path, SweepFormat format, std::string x_key,
                       std::string metric) {
  if (x_key.empty()) x_key = spec.axes.front().key;
  if (std::none_of(spec.axes.begin(), spec.axes.end(), [&](const SweepAxis& a) { return a.key == x_key; }))
    usage_error(fmt::format("sweep --plot-x {}: not a varied key", x_key));
  auto rows = read_rows(rows_path, format, sweep_columns(spec));
  if (metric.empty() && serving_sweep(spec)) return serving_plot(spec, rows, x_key);
  if (metric.empty()) metric = !rows.empty() && !rows.front()["tokens_per_second"].empty() ? "tokens_per_second" : "seconds";
  const auto metrics = plot_metric_columns(spec);
  if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end())
    usage_error(fmt::format("sweep --plot-y {}: not a numeric metric column (seconds, tokens_per_second, ...)", metric));
  std::map<std::string, SweepSeries> by_name;  // series in name order: deterministic
  std::vector<std::string> order;
  for (auto& row : rows) {
    std::string name = series_name(spec, x_key, row);
    if (!by_name.count(name)) order.push_back(name), by_name[name].name = name;
    if (!row[metric].empty()) by_name[name].points.push_back({as_number(row[x_key]), std::stod(row[metric])});
  }
  std::vector<SweepSeries> series;
  double lo = 1e300, hi = 0;
  for (const auto& name : order) {
    auto s = by_name[name];
    std::sort(s.points.begin(), s.points.end());
    for (const auto& p : s.points) lo = std::min(lo, p.first), hi = std::max(hi, p.first);
    series.push_back(std::move(s));
  }
  return sweep_svg(fmt::format("{} against {}", metric, x_key), x_key, metric, series, lo > 0 && hi / lo > 20);
}

}  // namespace hwsim
