#include "viz/serving_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>

#include "sim/units.h"

namespace hwsim {
namespace {

std::string ms(double s) { return fmt::format("{:.2f} ms", s * 1e3); }
std::string bytes(double b) { return format_quantity(b, Dimension::bytes); }

void print_pool(std::ostream& out, const ServingMetrics& m) {
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  row("KV cache capacity", fmt::format("{} tokens  ({} blocks of {} tokens, {})", m.kv_capacity_tokens,
                                       m.kv_capacity_blocks, m.block_tokens, bytes(m.kv_pool_bytes)));
  row("  pool sizing", fmt::format("{} × {} − weights {} − activations {}; {} per token",
                                   bytes(m.device_memory_bytes), m.gpu_memory_utilization, bytes(m.weight_bytes),
                                   bytes(m.activation_peak_bytes), bytes(m.kv_bytes_per_token)));
}

void print_latency(std::ostream& out, const char* name, const LatencyStats& s) {
  fmt::print(out, "  {:<10} {:>11} {:>11} {:>11} {:>11}\n", name, ms(s.mean), ms(s.p50), ms(s.p90), ms(s.p99));
}

void print_series(std::ostream& out, const ServingMetrics& m) {
  fmt::print(out, "\n  over time (every {} samples shown of {})\n  {:>10} {:>8} {:>8} {:>8}\n", 5, m.series.size(),
             "t", "running", "waiting", "KV use");
  for (std::size_t i = 0; i < m.series.size(); i += 5) {
    const auto& s = m.series[i];
    fmt::print(out, "  {:>10} {:>8} {:>8} {:>7.1f}%\n", ms(s.t), s.running, s.waiting, 100 * s.kv_use);
  }
}

nlohmann::json stats_json(const LatencyStats& s) {
  return {{"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}};
}

}  // namespace

void print_serving_report(std::ostream& out, const RunResult& r) {
  const ServingMetrics& m = r.serving;
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  print_pool(out, m);
  row("batching", fmt::format("{}  (max_batch {}, max_tokens_per_step {})", m.batching, m.max_batch,
                              m.max_tokens_per_step));
  row("requests", fmt::format("{} in {}  ({:.2f} requests/s)", m.requests, ms(m.duration_s), m.requests_per_s));
  row("output tokens/s", fmt::format("{:.1f}  ({} tokens)", m.output_tokens_per_s, m.output_tokens));
  row("total tokens/s", fmt::format("{:.1f}  (prompt {} + output {})", m.total_tokens_per_s, m.prompt_tokens,
                                    m.output_tokens));
  row("engine steps", fmt::format("{}  ({} simulated, the rest identical shapes reused; {} preemptions)",
                                  m.engine_steps, m.simulated_steps, m.preemptions));
  row("batch occupancy", fmt::format("{:.1f} sequences per step (time-weighted)", m.mean_batch));
  row("KV use", fmt::format("mean {:.1f} %, peak {:.1f} % of the pool", 100 * m.mean_kv_use, 100 * m.peak_kv_use));
  if (m.slo_ttft_s > 0 || m.slo_tpot_s > 0)
    row("SLO attainment", fmt::format("{:.1f} %  (TTFT ≤ {}, TPOT ≤ {})", 100 * m.slo_attainment,
                                      m.slo_ttft_s > 0 ? ms(m.slo_ttft_s) : "-", m.slo_tpot_s > 0 ? ms(m.slo_tpot_s) : "-"));
  fmt::print(out, "\n  {:<10} {:>11} {:>11} {:>11} {:>11}\n", "latency", "mean", "p50", "p90", "p99");
  print_latency(out, "TTFT", m.ttft_s);
  print_latency(out, "TPOT", m.tpot_s);
  print_latency(out, "ITL", m.itl_s);
  print_latency(out, "E2E", m.e2e_s);
  print_series(out, m);
}

nlohmann::json serving_json(const RunResult& r) {
  const ServingMetrics& m = r.serving;
  if (!m.present) return nullptr;
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : m.series)
    series.push_back({{"t", s.t}, {"running", s.running}, {"waiting", s.waiting}, {"kv_use", s.kv_use}});
  return {{"batching", m.batching},
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
          {"ttft_s", stats_json(m.ttft_s)},
          {"tpot_s", stats_json(m.tpot_s)},
          {"itl_s", stats_json(m.itl_s)},
          {"e2e_s", stats_json(m.e2e_s)},
          {"slo_ttft_s", m.slo_ttft_s},
          {"slo_tpot_s", m.slo_tpot_s},
          {"slo_attainment", m.slo_attainment},
          {"engine_steps", m.engine_steps},
          {"simulated_steps", m.simulated_steps},
          {"preemptions", m.preemptions},
          {"mean_batch", m.mean_batch},
          {"mean_kv_use", m.mean_kv_use},
          {"peak_kv_use", m.peak_kv_use},
          {"series", series}};
}

}  // namespace hwsim
