// The pictures of a serving run (RunResult::serving): the latency distributions a serving
// benchmark reports, and throughput, queue and KV cache use over the run.
#include <algorithm>
#include <fmt/format.h>

#include "viz/svg/charts.h"
#include "viz/svg/svg.h"

namespace hwsim {

std::string latency_svg(const ServingMetrics& m) {
  const std::vector<std::pair<const char*, const LatencyStats*>> series = {
      {"TTFT", &m.ttft_s}, {"TPOT", &m.tpot_s}, {"ITL", &m.itl_s}, {"E2E", &m.e2e_s}};
  double lo = 1e300, hi = 0;
  for (const auto& [name, s] : series)
    for (double v : s->quantiles)
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  svg::Canvas c(760, 340);
  svg::Frame f;
  if (hi <= 0) {
    c.text(c.width() / 2, c.height() / 2, "latency: no request finished", "middle", 13);
    return c.str();
  }
  svg::Axis x(lo, hi, f.left, c.width() - f.right, true);
  svg::Axis y(0, 1, c.height() - f.bottom, f.top, false);
  svg::TimeUnit unit = svg::time_unit(hi);
  svg::draw_axes(c, f, x, y, "Latency distributions (share of requests, or of token gaps for ITL)", "latency",
                 "fraction at or below", &unit);
  std::vector<std::string> names;
  for (const auto& [name, s] : series) {
    std::vector<std::pair<double, double>> points;
    const std::size_t n = s->quantiles.size();
    for (std::size_t i = 0; i < n; ++i)
      if (s->quantiles[i] > 0) points.push_back({x.map(s->quantiles[i]), y.map(double(i) / double(n - 1))});
    if (points.empty()) continue;
    c.polyline(points, svg::category_colour(name), 2);
    for (double q : {s->p50, s->p99})
      if (q > 0)
        c.circle(x.map(q), y.map(q == s->p50 ? 0.5 : 0.99), 3.5, svg::category_colour(name),
                 fmt::format("{} {}: {}", name, q == s->p50 ? "p50" : "p99", svg::duration(q)));
    names.push_back(fmt::format("{}", name));
  }
  svg::draw_legend(c, f, names);
  return c.str();
}

namespace {
// Sample i's interval on the run's timeline.
std::pair<double, double> interval(const ServingMetrics& m, std::size_t i) {
  double end = i + 1 < m.series.size() ? m.series[i + 1].t : m.duration_s;
  return {m.series[i].t, end};
}

std::vector<std::pair<double, double>> step_line(const ServingMetrics& m, const svg::Axis& x, const svg::Axis& y,
                                                 double (*value)(const ServingMetrics::Sample&)) {
  std::vector<std::pair<double, double>> out;
  for (std::size_t i = 0; i < m.series.size(); ++i) {
    auto [a, b] = interval(m, i);
    out.push_back({x.map(a), y.map(value(m.series[i]))});
    out.push_back({x.map(b), y.map(value(m.series[i]))});
  }
  return out;
}
}  // namespace

std::string serving_time_svg(const ServingMetrics& m) {
  svg::Canvas c(760, 360);
  svg::Frame f;
  f.right = 60;
  if (m.series.empty() || m.duration_s <= 0) {
    c.text(c.width() / 2, c.height() / 2, "over time: no step ran", "middle", 13);
    return c.str();
  }
  double tokens = 1, sequences = 1;
  for (const auto& s : m.series)
    tokens = std::max(tokens, s.output_tokens_per_s), sequences = std::max(sequences, double(s.running + s.waiting));
  svg::TimeUnit unit = svg::time_unit(m.duration_s);
  svg::Axis x(0, m.duration_s, f.left, c.width() - f.right, false);
  // Upper half: output tokens/s; lower half: sequences running and waiting, and KV use (right scale).
  const double mid = f.top + (c.height() - f.bottom - f.top) / 2;
  svg::Axis y_tokens(0, tokens * 1.1, mid - 12, f.top, false);
  svg::Axis y_seq(0, sequences * 1.1, c.height() - f.bottom, mid + 12, false);
  svg::Axis y_kv(0, 1, c.height() - f.bottom, mid + 12, false);
  svg::draw_axes(c, f, x, y_seq, "Throughput, queue and KV cache over the run", "time", "sequences", &unit);
  for (double t : y_tokens.ticks()) c.text(f.left - 5, y_tokens.map(t) + 3, svg::short_number(t), "end", 10);
  c.text(14, (f.top + mid) / 2, "tokens/s", "middle", 11, -90);
  c.line(f.left, mid, c.width() - f.right, mid, "#444");
  for (double t : {0.0, 0.5, 1.0})
    c.text(c.width() - f.right + 6, y_kv.map(t) + 4, fmt::format("{:.0f} %", 100 * t), "start", 10, 0,
           svg::category_colour("KV use"));
  c.polyline(step_line(m, x, y_tokens, [](const ServingMetrics::Sample& s) { return s.output_tokens_per_s; }),
             svg::category_colour("output tokens/s"), 1.8);
  c.polyline(step_line(m, x, y_seq, [](const ServingMetrics::Sample& s) { return double(s.running); }),
             svg::category_colour("running"), 1.6);
  c.polyline(step_line(m, x, y_seq, [](const ServingMetrics::Sample& s) { return double(s.waiting); }),
             svg::category_colour("waiting"), 1.6);
  c.polyline(step_line(m, x, y_kv, [](const ServingMetrics::Sample& s) { return s.kv_use; }),
             svg::category_colour("KV use"), 1.4);
  svg::draw_legend(c, f, {"output tokens/s", "running", "waiting", "KV use"});
  return c.str();
}

}  // namespace hwsim
