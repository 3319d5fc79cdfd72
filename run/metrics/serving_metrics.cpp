#include "run/metrics/serving_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "run/serving/serving_speculative.h"
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
  double squares = 0;  // the population standard deviation, as numpy.std
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(squares / double(values.size()));
  for (std::size_t i = 0; i < kLatencyQuantiles; ++i)
    s.quantiles.push_back(percentile(values, 100.0 * double(i) / double(kLatencyQuantiles - 1)));
  return s;
}

namespace {

// Latencies, throughput and SLO attainment over the requests.
void request_metrics(const ServeSpec& spec, const ServingLog& log, ServingMetrics& m) {
  std::vector<double> ttft, tpot, itl, e2e;
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
    for (std::size_t k = 1; k < times.size(); ++k)
      if (times[k] != times[k - 1]) itl.push_back(times[k] - times[k - 1]);  // one gap per streamed chunk
    within += (spec.slo_ttft <= 0 || t <= spec.slo_ttft) && (spec.slo_tpot <= 0 || per <= spec.slo_tpot) &&
                      (spec.slo_e2el <= 0 || e <= spec.slo_e2el)
                  ? 1
                  : 0;
  }
  m.ttft_s = latency_stats(ttft), m.tpot_s = latency_stats(tpot), m.itl_s = latency_stats(itl);
  m.e2e_s = latency_stats(e2e);
  m.requests_per_s = ratio(double(m.requests), m.duration_s);
  m.output_tokens_per_s = ratio(double(m.output_tokens), m.duration_s);
  m.total_tokens_per_s = ratio(double(m.prompt_tokens + m.output_tokens), m.duration_s);
  m.slo_ttft_s = spec.slo_ttft, m.slo_tpot_s = spec.slo_tpot, m.slo_e2el_s = spec.slo_e2el;
  const bool bounded = spec.slo_ttft > 0 || spec.slo_tpot > 0 || spec.slo_e2el > 0;
  m.slo_attainment = bounded ? ratio(double(within), double(m.requests)) : 0;
  // Goodput (benchmark_serving --goodput): the requests within every bound, per second.
  m.request_goodput = bounded ? ratio(double(within), m.duration_s) : 0;
}

void pool_metrics(const ServeSpec& spec, const KvPool& pool, ServingMetrics& m) {
  m.device_memory_bytes = pool.device_bytes, m.gpu_memory_utilization = spec.gpu_memory_utilization;
  m.weight_bytes = pool.weight_bytes, m.activation_peak_bytes = pool.activation_peak_bytes;
  m.kv_pool_bytes = pool.pool_bytes, m.kv_bytes_per_token = pool.bytes_per_token;
  m.block_tokens = pool.block;
}

void swap_metrics(const ServeSpec& spec, const ServingLog& log, const ServingSetting& setting, ServingMetrics& m) {
  m.preemption = spec.preemption == Preemption::swap ? "swap" : "recompute";
  m.swap_outs = log.swap_outs, m.swap_ins = log.swap_ins, m.swap_fallbacks = log.swap_fallbacks;
  m.swapped_bytes = log.swapped_bytes;
  for (const ServingStep& s : log.steps) m.swap_seconds += s.swap_seconds;
  m.host_link_bandwidth = setting.host_link_bandwidth;
  m.swap_space_bytes = spec.preemption == Preemption::swap ? spec.swap_space : 0;
}

std::string layout_text(const ServeLayout& l) {
  if (l.disaggregated()) return fmt::format("{}P{}D, prefill tp={}, decode tp={}", l.prefill, l.decode, l.prefill_tp,
                                            l.decode_tp);
  return fmt::format("{} replica{} of tp={}", l.dp, l.dp > 1 ? "s" : "", l.tp);
}

}  // namespace

ServingMetrics compute_serving_metrics(const ServeSpec& spec, const ServingDeployment& runner, ServingLog& log,
                                       const ServingSetting& setting) {
  ServingMetrics m;
  m.present = true;
  m.batching = spec.continuous ? "continuous" : "static";
  m.requests = std::int64_t(log.requests.size());
  m.max_batch = spec.max_batch, m.max_tokens_per_step = spec.max_tokens_per_step;
  pool_metrics(spec, runner.engines().front()->scheduler().pool(), m);
  request_metrics(spec, log, m);
  sharing_metrics(spec, log, m);
  swap_metrics(spec, log, setting, m);
  m.engine_steps = std::int64_t(log.steps.size());
  m.simulated_steps = log.simulated, m.preemptions = log.preemptions;
  m.system = setting.system;
  m.layout = layout_text(spec.layout);
  m.reuse_limited = runner.reuse_limited();
  std::vector<double> transfer_s;
  for (const KvTransferRecord& t : log.transfers) transfer_s.push_back(t.seconds), m.kv_transfer_bytes += t.bytes;
  m.kv_transfers = std::int64_t(log.transfers.size());
  m.kv_transfer_s = latency_stats(transfer_s);
  m.steps = std::move(log.steps);
  m.per_request = std::move(log.requests);
  instance_metrics(m, runner);
  throughput_series(m, log.token_times);
  return m;
}

SpeculativeMetrics speculative_metrics(const ServeSpec& spec, const ServingMetrics& m, const KvPool& pool,
                                       const ServingMetrics* baseline) {
  SpeculativeMetrics s;
  const SpeculativeSpec& sp = spec.speculative;
  if (!sp.on()) return s;
  s.present = true;
  s.draft = sp.draft.name, s.k = sp.k, s.accept = sp.accept;
  s.expected_tokens_per_step = expected_tokens_per_step(sp.k, sp.accept);
  s.draft_weight_bytes = pool.draft_weight_bytes, s.draft_kv_bytes_per_token = pool.draft_bytes_per_token;
  std::int64_t accepted = 0;
  double busy = 0, draft = 0;
  for (const ServingStep& st : m.steps) {
    s.verifications += st.verified, accepted += st.accepted;
    busy += st.seconds, draft += st.draft_seconds;
  }
  s.accepted_per_step = ratio(double(accepted), double(s.verifications));
  s.tokens_per_step = s.verifications > 0 ? s.accepted_per_step + 1 : 0;
  s.draft_share = ratio(draft, busy);
  if (!baseline) return s;
  s.baseline = true;
  s.baseline_duration_s = baseline->duration_s;
  s.baseline_output_tokens_per_s = baseline->output_tokens_per_s;
  s.baseline_tpot_s = baseline->tpot_s, s.baseline_ttft_s = baseline->ttft_s, s.baseline_e2e_s = baseline->e2e_s;
  s.speedup = ratio(m.output_tokens_per_s, baseline->output_tokens_per_s);
  s.tpot_speedup = ratio(baseline->tpot_s.mean, m.tpot_s.mean);
  return s;
}

}  // namespace hwsim
