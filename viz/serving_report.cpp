#include "viz/serving_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>

#include "sim/units.h"

namespace hwsim {
namespace {

std::string ms(double s) { return fmt::format("{:.2f} ms", s * 1e3); }
std::string bytes(double b) { return format_quantity(b, Dimension::bytes); }

void row(std::ostream& out, std::string_view label, const std::string& value) {
  fmt::print(out, "  {:<28} {}\n", label, value);
}

void print_pool(std::ostream& out, const ServingMetrics& m) {
  std::string where = m.instances.size() > 1 ? fmt::format(" over {} instances", m.instances.size()) : "";
  row(out, "KV cache capacity", fmt::format("{} tokens  ({} blocks of {} tokens{}; {} per device)", m.kv_capacity_tokens,
                                            m.kv_capacity_blocks, m.block_tokens, where, bytes(m.kv_pool_bytes)));
  row(out, "  pool sizing", fmt::format("{} × {} − weights {} − activations {}; {} per token", bytes(m.device_memory_bytes),
                                        m.gpu_memory_utilization, bytes(m.weight_bytes), bytes(m.activation_peak_bytes),
                                        bytes(m.kv_bytes_per_token)));
}

void print_instances(std::ostream& out, const ServingMetrics& m) {
  if (m.system.empty()) return;
  row(out, "layout", fmt::format("{} on {}{}", m.layout, m.system,
                                 m.reuse_limited ? "  (tp steps whose links other traffic shares: all simulated)" : ""));
  for (std::size_t i = 0; i < m.instances.size(); ++i) {
    const ServingInstance& in = m.instances[i];
    std::string devices;
    for (std::int64_t d : in.devices) devices += (devices.empty() ? "" : ",") + std::to_string(d);
    row(out, fmt::format("  {} {}", in.role, i),
        fmt::format("devices {}: {} requests, {} steps, busy {}, {:.1f} sequences per step, KV mean {:.1f} % peak "
                    "{:.1f} % of {} tokens", devices, in.requests, in.steps, ms(in.busy_s), in.mean_batch,
                    100 * in.mean_kv_use, 100 * in.peak_kv_use, in.kv_capacity_tokens));
  }
  if (m.kv_transfers > 0)
    row(out, "KV transfers", fmt::format("{} ({} in all): mean {}, p99 {}", m.kv_transfers, bytes(m.kv_transfer_bytes),
                                         ms(m.kv_transfer_s.mean), ms(m.kv_transfer_s.p99)));
}

void print_preemption(std::ostream& out, const ServingMetrics& m) {
  std::string text = fmt::format("{} ({})", m.preemptions, m.preemption);
  if (m.preemption == "swap")
    text += fmt::format(": {} out, {} in, {} over the host link ({} each way) in {}{}", m.swap_outs, m.swap_ins,
                        bytes(m.swapped_bytes), format_quantity(m.host_link_bandwidth, Dimension::bandwidth), ms(m.swap_seconds),
                        m.swap_fallbacks > 0 ? fmt::format("; {} recomputed (swap space of {} full)", m.swap_fallbacks,
                                                           bytes(m.swap_space_bytes))
                                             : "");
  row(out, "preemptions", text);
}

void print_speculative(std::ostream& out, const ServingMetrics& m) {
  const SpeculativeMetrics& s = m.speculative;
  if (!s.present) return;
  row(out, "speculative decoding", fmt::format("draft {}, k={}, accept={}: {:.2f} tokens per sequence-step ({:.2f} "
                                               "drafts accepted; expected (1−a^(k+1))/(1−a) = {:.2f})",
                                               s.draft, s.k, s.accept, s.tokens_per_step, s.accepted_per_step,
                                               s.expected_tokens_per_step));
  row(out, "  draft", fmt::format("{:.1f} % of the engine time; weights {}, {} KV per token", 100 * s.draft_share,
                                  bytes(s.draft_weight_bytes), bytes(s.draft_kv_bytes_per_token)));
  if (!s.baseline) return;
  row(out, "  versus no speculation",
      fmt::format("{:.2f}× the output tokens/s ({:.1f} vs {:.1f}): {}; TPOT {} vs {}", s.speedup, m.output_tokens_per_s,
                  s.baseline_output_tokens_per_s, s.speedup >= 1 ? "faster" : "SLOWER", ms(m.tpot_s.mean),
                  ms(s.baseline_tpot_s.mean)));
}

// vLLM's log line "Prefix cache hit rate: X%" (printed once a lookup hit).
void print_prefix_cache(std::ostream& out, const ServingMetrics& m) {
  if (m.prefix_hits + m.prefix_preempted_hits == 0) return;
  std::string text = fmt::format("hit rate {:.1f} %  ({} of {} prompt tokens cached", 100 * m.prefix_hit_rate,
                                 m.prefix_hits, m.prefix_queries);
  if (m.prefix_preempted_queries > 0)
    text += fmt::format("; preempted requests coming back: {} of {}", m.prefix_preempted_hits, m.prefix_preempted_queries);
  row(out, "prefix cache", text + fmt::format("; {} blocks evicted)", m.prefix_evictions));
}

// Per priority value: its requests, TTFT and E2EL (mean, p99).
void print_priorities(std::ostream& out, const ServingMetrics& m) {
  if (m.priority_classes.empty()) return;
  fmt::print(out, "\n  {:<10} {:>8} {:>11} {:>11} {:>11} {:>11}   (scheduling={})\n", "priority", "requests",
             "TTFT mean", "TTFT p99", "E2EL mean", "E2EL p99", m.scheduling);
  for (const auto& c : m.priority_classes)
    fmt::print(out, "  {:<10} {:>8} {:>11} {:>11} {:>11} {:>11}\n", c.priority, c.requests, ms(c.ttft_s.mean),
               ms(c.ttft_s.p99), ms(c.e2e_s.mean), ms(c.e2e_s.p99));
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

// The block vLLM's benchmark_serving prints, its names and layout, so a run reads beside it.
void print_benchmark_block(std::ostream& out, const ServingMetrics& m) {
  auto line = [&](std::string_view name, const std::string& value) { fmt::print(out, "{:<40} {}\n", name, value); };
  auto heading = [&](std::string_view title) { fmt::print(out, "{:-^50}\n", title); };
  auto latency = [&](const char* name, const LatencyStats& s) {
    line(fmt::format("Mean {} (ms):", name), fmt::format("{:.2f}", s.mean * 1e3));
    line(fmt::format("Median {} (ms):", name), fmt::format("{:.2f}", s.p50 * 1e3));
    line(fmt::format("P99 {} (ms):", name), fmt::format("{:.2f}", s.p99 * 1e3));
  };
  fmt::print(out, "{:=^50}\n", " Serving Benchmark Result ");
  line("Successful requests:", fmt::format("{}", m.requests));
  line("Benchmark duration (s):", fmt::format("{:.2f}", m.duration_s));
  line("Total input tokens:", fmt::format("{}", m.prompt_tokens));
  line("Total generated tokens:", fmt::format("{}", m.output_tokens));
  line("Request throughput (req/s):", fmt::format("{:.2f}", m.requests_per_s));
  if (m.slo_ttft_s > 0 || m.slo_tpot_s > 0 || m.slo_e2el_s > 0)
    line("Request goodput (req/s):", fmt::format("{:.2f}", m.request_goodput));
  line("Output token throughput (tok/s):", fmt::format("{:.2f}", m.output_tokens_per_s));
  line("Total Token throughput (tok/s):", fmt::format("{:.2f}", m.total_tokens_per_s));
  heading("Time to First Token");
  latency("TTFT", m.ttft_s);
  heading("Time per Output Token (excl. 1st token)");
  latency("TPOT", m.tpot_s);
  heading("Inter-token Latency");
  latency("ITL", m.itl_s);
  heading("End-to-end Latency");
  latency("E2EL", m.e2e_s);
  fmt::print(out, "{:=^50}\n\n", "");
}

}  // namespace

void print_serving_report(std::ostream& out, const RunResult& r) {
  const ServingMetrics& m = r.serving;
  print_benchmark_block(out, m);
  print_pool(out, m);
  print_instances(out, m);
  row(out, "batching", fmt::format("{}  (max_batch {}, max_tokens_per_step {})", m.batching, m.max_batch,
                                   m.max_tokens_per_step));
  row(out, "energy", fmt::format("{}  ({} per device on average; {} per output token, {:.3g} tokens/J)",
                                 format_quantity(m.energy, Dimension::energy),
                                 format_quantity(m.average_power, Dimension::power),
                                 format_quantity(m.joules_per_output_token, Dimension::energy), m.output_tokens_per_joule));
  row(out, "engine steps", fmt::format("{}  ({} passes simulated, the rest repeats of earlier ones, reused)", m.engine_steps,
                                       m.simulated_steps));
  print_preemption(out, m);
  print_speculative(out, m);
  print_prefix_cache(out, m);
  row(out, "batch occupancy", fmt::format("{:.1f} sequences per step (time-weighted)", m.mean_batch));
  row(out, "KV use", fmt::format("mean {:.1f} %, peak {:.1f} % of the pool", 100 * m.mean_kv_use, 100 * m.peak_kv_use));
  if (m.slo_ttft_s > 0 || m.slo_tpot_s > 0 || m.slo_e2el_s > 0)
    row(out, "SLO attainment", fmt::format("{:.1f} %  (TTFT ≤ {}, TPOT ≤ {}, E2EL ≤ {})", 100 * m.slo_attainment,
                                           m.slo_ttft_s > 0 ? ms(m.slo_ttft_s) : "-",
                                           m.slo_tpot_s > 0 ? ms(m.slo_tpot_s) : "-",
                                           m.slo_e2el_s > 0 ? ms(m.slo_e2el_s) : "-"));
  fmt::print(out, "\n  {:<10} {:>11} {:>11} {:>11} {:>11}\n", "latency", "mean", "p50", "p90", "p99");
  print_latency(out, "TTFT", m.ttft_s);
  print_latency(out, "TPOT", m.tpot_s);
  print_latency(out, "ITL", m.itl_s);
  print_latency(out, "E2E", m.e2e_s);
  print_priorities(out, m);
  print_series(out, m);
}

}  // namespace hwsim
