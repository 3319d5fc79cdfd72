#include "app/serving_metrics.h"

#include <algorithm>
#include <cmath>

#include "sim/arith.h"

namespace hwsim {

double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q / 100.0 * double(sorted.size() - 1);
  std::size_t lo = std::size_t(std::floor(pos));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

LatencyStats latency_stats(std::vector<double> values) {
  LatencyStats s;
  s.count = std::int64_t(values.size());
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / double(values.size());
  s.p50 = percentile(values, 50), s.p90 = percentile(values, 90), s.p99 = percentile(values, 99);
  return s;
}

namespace {

// Occupancy and KV use at kServingSamples evenly spaced instants (the step running at each).
void sample_series(ServingMetrics& m) {
  if (m.steps.empty() || m.duration_s <= 0) return;
  std::size_t step = 0;
  for (std::size_t i = 0; i < kServingSamples; ++i) {
    double t = m.duration_s * double(i) / double(kServingSamples);
    while (step + 1 < m.steps.size() && m.steps[step + 1].start <= t) ++step;
    const ServingStep& s = m.steps[step];
    ServingMetrics::Sample sm;
    sm.t = t;
    bool inside = s.start <= t && t < s.start + s.seconds;
    sm.running = inside ? s.sequences : 0;
    sm.waiting = s.waiting;
    sm.kv_use = ratio(double(s.kv_blocks_used), double(m.kv_capacity_blocks));
    m.series.push_back(sm);
  }
}

}  // namespace

ServingMetrics compute_serving_metrics(const ServeSpec& spec, const KvPool& pool, ServingLog& log) {
  ServingMetrics m;
  m.present = true;
  m.batching = spec.continuous ? "continuous" : "static";
  m.requests = std::int64_t(log.requests.size());
  m.max_batch = spec.max_batch, m.max_tokens_per_step = spec.max_tokens_per_step;
  m.device_memory_bytes = pool.device_bytes, m.gpu_memory_utilization = spec.gpu_memory_utilization;
  m.weight_bytes = pool.weight_bytes, m.activation_peak_bytes = pool.activation_peak_bytes;
  m.kv_pool_bytes = pool.pool_bytes, m.kv_bytes_per_token = pool.bytes_per_token;
  m.block_tokens = pool.block, m.kv_capacity_blocks = pool.blocks, m.kv_capacity_tokens = pool.tokens();
  std::vector<double> ttft, tpot, itl, e2e;
  bool slo = spec.slo_ttft > 0 || spec.slo_tpot > 0;
  std::int64_t within = 0;
  for (std::size_t i = 0; i < log.requests.size(); ++i) {
    const ServedRequest& r = log.requests[i];
    m.prompt_tokens += r.prompt, m.output_tokens += r.output;
    m.duration_s = std::max(m.duration_s, r.finish);
    double t = r.first_token - r.arrival, e = r.finish - r.arrival;
    ttft.push_back(t), e2e.push_back(e);
    double per = r.output > 1 ? (e - t) / double(r.output - 1) : 0;
    if (r.output > 1) tpot.push_back(per);
    const auto& times = log.token_times[i];
    for (std::size_t k = 1; k < times.size(); ++k) itl.push_back(times[k] - times[k - 1]);
    bool ok = (spec.slo_ttft <= 0 || t <= spec.slo_ttft) && (spec.slo_tpot <= 0 || per <= spec.slo_tpot);
    within += ok ? 1 : 0;
  }
  m.ttft_s = latency_stats(ttft), m.tpot_s = latency_stats(tpot), m.itl_s = latency_stats(itl);
  m.e2e_s = latency_stats(e2e);
  m.requests_per_s = ratio(double(m.requests), m.duration_s);
  m.output_tokens_per_s = ratio(double(m.output_tokens), m.duration_s);
  m.total_tokens_per_s = ratio(double(m.prompt_tokens + m.output_tokens), m.duration_s);
  m.slo_ttft_s = spec.slo_ttft, m.slo_tpot_s = spec.slo_tpot;
  m.slo_attainment = slo ? ratio(double(within), double(m.requests)) : 0;
  m.engine_steps = std::int64_t(log.steps.size());
  m.simulated_steps = log.simulated, m.preemptions = log.preemptions;
  double busy = 0, seq_time = 0, kv_time = 0;
  for (const ServingStep& s : log.steps) {
    busy += s.seconds;
    seq_time += s.seconds * double(s.sequences);
    double use = ratio(double(s.kv_blocks_used), double(pool.blocks));
    kv_time += s.seconds * use;
    m.peak_kv_use = std::max(m.peak_kv_use, use);
  }
  m.mean_batch = ratio(seq_time, busy), m.mean_kv_use = ratio(kv_time, busy);
  m.steps = std::move(log.steps);
  m.per_request = std::move(log.requests);
  sample_series(m);
  return m;
}

}  // namespace hwsim
