#include "viz/text_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>

#include "sim/llm_metrics.h"
#include "sim/units.h"

namespace hwsim {

namespace {
std::string seconds(double s) { return format_quantity(s, Dimension::time, 4); }
std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : "-"; }
// Language-model section: only for workloads that produce tokens (decode, prefill, generate).
void print_llm_section(std::ostream& out, const Workload& workload, const RunResult& r) {
  LlmMetrics m = compute_llm_metrics(workload, r);
  if (!m.present) return;
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "\n  language model\n");
  row("tokens", fmt::format("{} in {} steps  ({:.1f} tokens/s)", m.tokens, m.steps.size(), m.tokens_per_second));
  if (m.ttft > 0) row("time to first token (TTFT)", seconds(m.ttft));
  if (m.tpot > 0) row("time per output token (TPOT)", fmt::format("{}  ({:.1f} decode tokens/s)", seconds(m.tpot),
                                                                   m.decode_tokens_per_second));
  row("MBU / MFU", fmt::format("{:.1f} % / {:.1f} %", 100 * m.mbu, 100 * m.mfu));
  row("energy per token", format_quantity(m.joules_per_token, Dimension::energy));
  if (workload.llm) {
    const LlmFacts& f = *workload.llm;
    row("memory held", fmt::format("{}  (weights {}, KV cache {}, activations {})",
                                   format_quantity(f.total_bytes(), Dimension::bytes),
                                   format_quantity(f.weight_bytes, Dimension::bytes),
                                   format_quantity(f.kv_bytes, Dimension::bytes),
                                   format_quantity(f.activation_bytes, Dimension::bytes)));
  }
  fmt::print(out, "\n  {:<26} {:>12} {:>7} {:>12} {:>8}\n", "time by op class", "time", "share", "floor", "kernels");
  for (const auto& [name, c] : m.by_class)
    fmt::print(out, "  {:<26} {:>12} {:>7} {:>12} {:>8}\n", name, seconds(c.seconds), percent(c.seconds, m.seconds),
               name == "launch_gaps" ? std::string("-") : seconds(c.roofline_floor), c.kernels);
  fmt::print(out, "\n  {:<22} {:>10} {:>7} {:>6} {:>7} {:>7}  {}\n", "time by operation", "time", "share", "x floor",
             "kernels", "bound", "lowering (first kernel)");
  for (const auto& [name, op] : m.by_operation)
    fmt::print(out, "  {:<22} {:>10} {:>7} {:>6.1f} {:>7} {:>7}  {}\n", name.substr(0, 22), seconds(op.seconds),
               percent(op.seconds, m.seconds), op.times_floor, op.kernels,
               op.bound, op.lowering);
  fmt::print(out, "\n  {:<34} {:>10} {:>10} {:>7} {:>7}\n", "farthest from roofline floor", "time", "floor", "x floor",
             "bound");
  for (const auto& k : m.farthest_from_floor)
    fmt::print(out, "  {:<34} {:>10} {:>10} {:>7.2f} {:>7}\n", (k.step + " " + k.name).substr(0, 34), seconds(k.seconds),
               seconds(k.roofline_floor), k.ratio, k.bound);
}

}  // namespace

void print_text_report(std::ostream& out, const Config& config, const Workload& workload, const RunResult& r) {
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "hwsim {} · chip {} ({}) · level {}\n", HWSIM_VERSION, config.text("name"), config.chip_path(), r.level);
  fmt::print(out, "workload {}\n\n", workload.spec);
  row("simulated time", seconds(r.seconds));
  row("roofline floor", fmt::format("{}  (simulated is {:.2f}x the floor)", seconds(r.roofline_floor), r.times_floor));
  row("achieved", fmt::format("{}  ({:.1f} % of {} peak)", format_quantity(r.achieved_flop_rate, Dimension::flop_rate),
                              r.percent_of_peak, format_quantity(r.peak_flop_rate, Dimension::flop_rate)));
  row("arithmetic intensity", fmt::format("{:.1f} FLOP/B vs ridge {:.1f} FLOP/B → {}-bound", r.arithmetic_intensity,
                                          r.ridge_point, r.bound));
  row("HBM traffic", fmt::format("{}  at {} ({} of peak)", format_quantity(r.hbm_bytes, Dimension::bytes),
                                 format_quantity(r.hbm_bandwidth_achieved, Dimension::bandwidth),
                                 percent(r.hbm_bandwidth_achieved, r.peak_hbm_bandwidth)));
  row("L2 traffic", fmt::format("{}  at {}", format_quantity(r.l2_bytes, Dimension::bytes),
                                format_quantity(r.l2_bandwidth_achieved, Dimension::bandwidth)));
  row("energy", fmt::format("{}  (average {}{})", format_quantity(r.energy, Dimension::energy),
                            format_quantity(r.average_power, Dimension::power),
                            r.above_tdp ? fmt::format(", above the {} TDP: a real chip would lower its clock, "
                                                      "which is not simulated",
                                                      format_quantity(r.tdp, Dimension::power))
                                        : std::string()));
  fmt::print(out, "\n  where the time went (averaged over SMs)\n");
  const auto& b = r.breakdown;
  row("  math", fmt::format("{:>12}  {:>7}", seconds(b.math), percent(b.math, r.seconds)));
  row("  waiting on memory", fmt::format("{:>12}  {:>7}", seconds(b.memory_wait), percent(b.memory_wait, r.seconds)));
  row("  launch/fill/epilogue", fmt::format("{:>12}  {:>7}", seconds(b.overhead), percent(b.overhead, r.seconds)));
  row("  idle SMs (tail, small grid)", fmt::format("{:>12}  {:>7}", seconds(b.idle), percent(b.idle, r.seconds)));

  if (workload.llm) {  // language models: the per-operation table of the LLM section instead
    print_llm_section(out, workload, r);
    fmt::print(out, "\n  every kernel, with its start, end, SMs and bytes per level: --json FILE\n");
    return;
  }
  fmt::print(out, "\n  {:<24} {:>10} {:>9} {:>8} {:>7} {:>7}  {}\n", "kernel", "time", "TFLOP/s", "HBM GB/s",
             "waves", "bound", "lowering");
  constexpr std::size_t kMaxShown = 40;
  std::size_t total = 0;
  for (const auto& step : r.steps) total += step.kernels.size();
  std::size_t shown = 0;
  for (const auto& step : r.steps) {
    for (const auto& k : step.kernels) {
      if (++shown > kMaxShown) break;
      fmt::print(out, "  {:<24} {:>10} {:>9.1f} {:>8.0f} {:>7.2f} {:>7}  {}\n", k.name.substr(0, 24), seconds(k.seconds),
                 k.achieved_flop_rate / 1e12, k.hbm_bandwidth_achieved / 1e9, k.waves, k.bound, k.config);
    }
  }
  if (total > kMaxShown) fmt::print(out, "  ... {} kernels in all (see --json)\n", total);
  print_llm_section(out, workload, r);
}

}  // namespace hwsim
