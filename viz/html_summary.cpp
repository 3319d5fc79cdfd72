#include "viz/html_summary.h"

#include <fmt/format.h>

#include "sim/units.h"
#include "viz/html_page.h"

namespace hwsim {
namespace {
using html::row;

std::string q(double v, Dimension d) { return format_quantity(v, d); }
std::string pct(double part, double whole) { return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : "-"; }

std::string head(const Config& config, const Workload& workload, const RunResult& r) {
  return row("chip", config.text("name")) + row("workload", workload.spec) +
         row("device", r.device_kind + ", " + r.level + " level");
}

// The part of the breakdown that took the most time, and its share.
std::string where_most(const RunResult& r) {
  const TimeBreakdown& b = r.breakdown;
  std::pair<const char*, double> parts[] = {{"compute", b.compute}, {"memory stalls", b.memory},
                                           {"communication", b.communication}, {"launch, fill and drain", b.overhead},
                                           {"idle", b.idle}};
  auto* most = &parts[0];
  for (auto& p : parts)
    if (p.second > most->second) most = &p;
  return fmt::format("{} ({})", most->first, pct(most->second, b.total()));
}

// Each memory level's bytes, and its bandwidth against the chip's figure for it.
std::string traffic_rows(const RunResult& r) {
  std::string t;
  for (std::size_t i = 0; i < r.traffic.size(); ++i) {
    double peak = i < r.memory_level_bandwidth.size() ? r.memory_level_bandwidth[i] : 0;
    double rate = i < r.bandwidth.size() ? r.bandwidth[i] : 0;
    t += row(r.traffic[i].level + " traffic",
             fmt::format("{} at {}{}", q(r.traffic[i].bytes, Dimension::bytes), q(rate, Dimension::bandwidth),
                         peak > 0 ? fmt::format(" ({} of {})", pct(rate, peak), q(peak, Dimension::bandwidth)) : ""));
  }
  return t;
}

std::string power_rows(const RunResult& r) {
  std::string per = r.devices > 1 ? fmt::format(" per device ({:g} devices)", r.devices) : "";
  std::string t = row("energy", fmt::format("{}, {} average{}", q(r.energy, Dimension::energy),
                                            q(r.average_power, Dimension::power), per));
  if (r.tdp > 0) t += row("power limit", q(r.tdp, Dimension::power) +
                                         (r.power.over_limit_joules > 0
                                              ? fmt::format("; {} above it while the clock governor caught up",
                                                            q(r.power.over_limit_joules, Dimension::energy))
                                              : std::string()));
  if (r.power.average_clock > 0)
    t += row("SM clock", fmt::format("{} average of {}, below it {:.0f} % of the time", q(r.power.average_clock, Dimension::frequency),
                                     q(r.power.max_clock, Dimension::frequency), 100 * r.power.throttled_share));
  return t;
}

std::string llm_rows(const LlmMetrics& m) {
  if (!m.present) return "";
  std::string t;
  if (m.joules_per_prompt_token > 0) {  // a prefill alone
    t += row("prompt tokens", fmt::format("{} ({:.6g} prompt tokens/s)", m.prompt_tokens, m.prefill_tokens_per_second));
    t += row("energy per prompt token", q(m.joules_per_prompt_token, Dimension::energy));
  } else {
    t += row("tokens/s", fmt::format("{:.6g} ({} tokens in {} steps)", m.tokens_per_second, m.tokens, m.steps.size()));
    t += row("energy per token", fmt::format("{} ({:.3g} tokens/J)", q(m.joules_per_token, Dimension::energy), m.tokens_per_joule));
  }
  if (m.ttft > 0) t += row("TTFT", q(m.ttft, Dimension::time));
  if (m.tpot > 0) t += row("TPOT", q(m.tpot, Dimension::time));
  t += row("MBU / MFU", fmt::format("{:.1f} % / {:.1f} %", 100 * m.mbu, 100 * m.mfu));
  return t;
}

std::string inference_rows(const InferenceMetrics& m) {
  if (!m.present) return "";
  std::string t = row("per inference", fmt::format("{}, {} ({:.4g} inferences/s)", q(m.latency, Dimension::time),
                                                  q(m.energy, Dimension::energy), m.inferences_per_second));
  t += row("MACs", fmt::format("{:.4g} per inference, {:.2f} per cycle", m.macs, m.macs_per_cycle));
  t += row("NPU / CPU", fmt::format("{} / {} of the time, {} op(s) fell back to the CPU", pct(m.npu.seconds, m.latency),
                                    pct(m.cpu.seconds, m.latency), m.fallbacks.size()));
  t += row("weights", fmt::format("{}: {} in SRAM, {} in flash{}", q(m.weight_bytes, Dimension::bytes),
                                  q(m.weights_in_sram, Dimension::bytes), q(m.weights_in_flash, Dimension::bytes),
                                  m.weights_in_ext > 0 ? ", " + q(m.weights_in_ext, Dimension::bytes) + " external" : ""));
  return t;
}

std::string system_rows(const SystemMetrics& m) {
  if (!m.present) return "";
  return row("system", fmt::format("{}: {} of {} devices, {}", m.name, m.devices_used, m.devices, m.layout)) +
         row("energy, all devices + links", q(m.energy, Dimension::energy)) +
         row("collectives", fmt::format("{} in all, {} not hidden behind compute", q(m.collective_seconds, Dimension::time),
                                        q(m.communication_exposed, Dimension::time)));
}

}  // namespace

std::string device_summary(const Config& config, const Workload& workload, const RunResult& r) {
  std::string t = "<table class=\"summary\">\n" + head(config, workload, r);
  t += row("time", q(r.seconds, Dimension::time) +
                       (r.devices > 1 ? fmt::format("; the figures below are one device's, averaged over {:g}", r.devices)
                                      : std::string()));
  t += row("roofline floor", fmt::format("{} (time is {:.2f}× the floor)", q(r.roofline_floor, Dimension::time), r.times_floor));
  t += row("roofline class", fmt::format("{}-bound: {:.3g} FLOP/byte against a ridge of {:.3g}", r.bound,
                                         r.arithmetic_intensity, r.ridge_point));
  t += row("time went most to", where_most(r));
  t += row("achieved", fmt::format("{} ({:.1f} % of peak)", q(r.achieved_flop_rate, Dimension::flop_rate), r.percent_of_peak));
  t += traffic_rows(r);
  t += power_rows(r) + inference_rows(r.inference) + llm_rows(r.llm) + system_rows(r.system);
  return t + "</table>\n";
}

std::string serving_summary(const Config& config, const Workload& workload, const RunResult& r) {
  const ServingMetrics& m = r.serving;
  auto latency = [](const LatencyStats& s) {
    return fmt::format("mean {}, median {}, p99 {}", q(s.mean, Dimension::time), q(s.p50, Dimension::time),
                       q(s.p99, Dimension::time));
  };
  std::string t = "<table class=\"summary\">\n" + head(config, workload, r);
  t += row("layout", m.system.empty() ? m.layout : m.layout + " on " + m.system);
  t += row("requests", fmt::format("{} in {} ({:.3g} requests/s)", m.requests, q(m.duration_s, Dimension::time), m.requests_per_s));
  t += row("output token throughput", fmt::format("{:.1f} tokens/s ({} tokens)", m.output_tokens_per_s, m.output_tokens));
  t += row("total token throughput", fmt::format("{:.1f} tokens/s (prompt {} + output {})", m.total_tokens_per_s,
                                                 m.prompt_tokens, m.output_tokens));
  t += row("TTFT", latency(m.ttft_s)) + row("TPOT", latency(m.tpot_s)) + row("ITL", latency(m.itl_s)) +
       row("E2E latency", latency(m.e2e_s));
  if (m.slo_ttft_s > 0 || m.slo_tpot_s > 0) t += row("SLO attainment", pct(m.slo_attainment, 1));
  t += row("energy per output token", fmt::format("{} ({:.3g} tokens/J)", q(m.joules_per_output_token, Dimension::energy),
                                                  m.output_tokens_per_joule));
  t += row("energy", fmt::format("{} over the run, {} per device on average", q(m.energy, Dimension::energy),
                                 q(m.average_power, Dimension::power)));
  t += row("batch and KV cache", fmt::format("{:.1f} sequences per step; KV use mean {}, peak {}", m.mean_batch,
                                             pct(m.mean_kv_use, 1), pct(m.peak_kv_use, 1)));
  t += row("engine steps", fmt::format("{} ({} simulated, the rest reused exactly)", m.engine_steps, m.simulated_steps));
  return t + "</table>\n";
}

std::string collective_summary(const Config& config, const Workload& workload, const RunResult& r) {
  const SystemMetrics& m = r.system;
  const CollectivePoint* best = &m.collectives.front();
  for (const auto& p : m.collectives)
    if (p.busbw > best->busbw) best = &p;
  std::string t = "<table class=\"summary\">\n" + head(config, workload, r);
  t += row("system", fmt::format("{}: {} × {}; {}", m.name, m.devices, m.chip, m.fabric));
  t += row("collective", fmt::format("{} among {:g} ranks, {} size(s) from {} to {}", best->op, best->ranks,
                                     m.collectives.size(), q(m.collectives.front().bytes, Dimension::bytes),
                                     q(m.collectives.back().bytes, Dimension::bytes)));
  t += row("peak bus bandwidth", fmt::format("{} at {} ({})", q(best->busbw, Dimension::bandwidth),
                                             q(best->bytes, Dimension::bytes), best->algorithm));
  t += row("time", q(r.seconds, Dimension::time) + " for every size one after another");
  t += row("links", fmt::format("{} over all hops, {}", q(m.link_bytes, Dimension::bytes), q(m.link_energy, Dimension::energy)));
  t += power_rows(r) + row("bound", "communication: the devices wait on the links (no FLOPs, no device bytes)");
  return t + "</table>\n";
}

}  // namespace hwsim
