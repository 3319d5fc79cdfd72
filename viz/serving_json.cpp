// result.serving (viz/serving_report.h; fields in docs/serving.md). Formats only.
#include "viz/serving_report.h"

#include <fmt/format.h>

#include <utility>

namespace hwsim {
namespace {

nlohmann::json stats_json(const LatencyStats& s) {
  return {{"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}, {"std", s.std}};
}

// The summary keys of benchmark_serving's --save-result file (milliseconds, tokens/s), so a script
// that reads its results reads ours.
nlohmann::json benchmark_serving_json(const ServingMetrics& m) {
  nlohmann::json j = {{"duration", m.duration_s},
                      {"completed", m.requests},
                      {"total_input_tokens", m.prompt_tokens},
                      {"total_output_tokens", m.output_tokens},
                      {"request_throughput", m.requests_per_s},
                      {"request_goodput", m.slo_ttft_s > 0 || m.slo_tpot_s > 0 || m.slo_e2el_s > 0
                                              ? nlohmann::json(m.request_goodput) : nlohmann::json()},
                      {"output_throughput", m.output_tokens_per_s},
                      {"total_token_throughput", m.total_tokens_per_s}};
  for (const auto& [name, s] : {std::pair<const char*, const LatencyStats*>{"ttft", &m.ttft_s}, {"tpot", &m.tpot_s},
                                {"itl", &m.itl_s}, {"e2el", &m.e2e_s}}) {
    j[fmt::format("mean_{}_ms", name)] = s->mean * 1e3;
    j[fmt::format("median_{}_ms", name)] = s->p50 * 1e3;
    j[fmt::format("std_{}_ms", name)] = s->std * 1e3;
    j[fmt::format("p99_{}_ms", name)] = s->p99 * 1e3;
  }
  return j;
}

nlohmann::json instances_json(const ServingMetrics& m) {
  nlohmann::json out = nlohmann::json::array();
  for (const ServingInstance& in : m.instances)
    out.push_back({{"role", in.role}, {"devices", in.devices}, {"kv_capacity_tokens", in.kv_capacity_tokens},
                   {"kv_capacity_blocks", in.kv_capacity_blocks}, {"requests", in.requests}, {"steps", in.steps},
                   {"busy_s", in.busy_s}, {"mean_batch", in.mean_batch}, {"mean_kv_use", in.mean_kv_use},
                   {"peak_kv_use", in.peak_kv_use}});
  return out;
}

nlohmann::json speculative_json(const SpeculativeMetrics& s) {
  if (!s.present) return nullptr;
  nlohmann::json j = {{"draft", s.draft},
                      {"k", s.k},
                      {"accept", s.accept},
                      {"verifications", s.verifications},
                      {"accepted_per_step", s.accepted_per_step},
                      {"tokens_per_step", s.tokens_per_step},
                      {"expected_tokens_per_step", s.expected_tokens_per_step},
                      {"draft_share", s.draft_share},
                      {"draft_weight_bytes", s.draft_weight_bytes},
                      {"draft_kv_bytes_per_token", s.draft_kv_bytes_per_token}};
  if (s.baseline)
    j["baseline"] = {{"duration_s", s.baseline_duration_s}, {"output_tokens_per_s", s.baseline_output_tokens_per_s},
                     {"ttft_s", stats_json(s.baseline_ttft_s)}, {"tpot_s", stats_json(s.baseline_tpot_s)},
                     {"e2e_s", stats_json(s.baseline_e2e_s)}, {"speedup", s.speedup}, {"tpot_speedup", s.tpot_speedup}};
  return j;
}

nlohmann::json preemption_json(const ServingMetrics& m) {
  return {{"mode", m.preemption},         {"preemptions", m.preemptions},
          {"swap_outs", m.swap_outs},     {"swap_ins", m.swap_ins},
          {"swap_fallbacks", m.swap_fallbacks}, {"swapped_bytes", m.swapped_bytes},
          {"swap_s", m.swap_seconds},     {"host_link_bandwidth", m.host_link_bandwidth},
          {"swap_space_bytes", m.swap_space_bytes}};
}

// Prefix caching: vLLM's hit rate (hits / queries, prompt tokens, requests never preempted).
nlohmann::json prefix_cache_json(const ServingMetrics& m) {
  return {{"enabled", m.prefix_caching},
          {"queries", m.prefix_queries},
          {"hits", m.prefix_hits},
          {"hit_rate", m.prefix_hit_rate},
          {"preempted_queries", m.prefix_preempted_queries},
          {"preempted_hits", m.prefix_preempted_hits},
          {"evictions", m.prefix_evictions}};
}

// Per priority value (lowest first): its requests' TTFT and E2EL.
nlohmann::json priority_classes_json(const ServingMetrics& m) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : m.priority_classes)
    out.push_back({{"priority", c.priority}, {"requests", c.requests}, {"ttft_s", stats_json(c.ttft_s)},
                   {"e2el_s", stats_json(c.e2e_s)}});
  return out;
}

}  // namespace

nlohmann::json serving_json(const RunResult& r) {
  const ServingMetrics& m = r.serving;
  if (!m.present) return nullptr;
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : m.series)
    series.push_back({{"t", s.t}, {"running", s.running}, {"waiting", s.waiting}, {"kv_use", s.kv_use},
                      {"output_tokens_per_s", s.output_tokens_per_s}});
  nlohmann::json j = {{"batching", m.batching},
                      {"requests", m.requests},
                      {"duration_s", m.duration_s},
                      {"kv_capacity_tokens", m.kv_capacity_tokens},
                      {"kv_capacity_blocks", m.kv_capacity_blocks},
                      {"block_tokens", m.block_tokens},
                      {"kv_pool_bytes", m.kv_pool_bytes},
                      {"kv_bytes_per_token", m.kv_bytes_per_token},
                      {"weight_bytes", m.weight_bytes},
                      {"activation_peak_bytes", m.activation_peak_bytes},
                      {"prompt_tokens", m.prompt_tokens},
                      {"output_tokens", m.output_tokens},
                      {"requests_per_s", m.requests_per_s},
                      {"output_tokens_per_s", m.output_tokens_per_s},
                      {"total_tokens_per_s", m.total_tokens_per_s},
                      {"energy_j", m.energy},
                      {"average_power_w", m.average_power},
                      {"joules_per_output_token", m.joules_per_output_token},
                      {"output_tokens_per_joule", m.output_tokens_per_joule},
                      {"ttft_s", stats_json(m.ttft_s)},
                      {"tpot_s", stats_json(m.tpot_s)},
                      {"itl_s", stats_json(m.itl_s)},
                      {"e2e_s", stats_json(m.e2e_s)},
                      {"slo_ttft_s", m.slo_ttft_s},
                      {"slo_tpot_s", m.slo_tpot_s},
                      {"slo_e2el_s", m.slo_e2el_s},
                      {"request_goodput", m.request_goodput},
                      {"benchmark_serving", benchmark_serving_json(m)},
                      {"slo_attainment", m.slo_attainment},
                      {"engine_steps", m.engine_steps},
                      {"simulated_steps", m.simulated_steps},
                      {"preemptions", m.preemptions},
                      {"preemption", preemption_json(m)},
                      {"mean_batch", m.mean_batch},
                      {"mean_kv_use", m.mean_kv_use},
                      {"peak_kv_use", m.peak_kv_use},
                      {"system", m.system},
                      {"layout", m.layout},
                      {"instances", instances_json(m)},
                      {"kv_transfers", {{"count", m.kv_transfers}, {"bytes", m.kv_transfer_bytes},
                                        {"seconds", stats_json(m.kv_transfer_s)}}},
                      {"speculative", speculative_json(m.speculative)},
                      {"prefix_cache", prefix_cache_json(m)},
                      {"scheduling", m.scheduling},
                      {"priority_classes", priority_classes_json(m)},
                      {"series", series}};
  return j;
}

}  // namespace hwsim
