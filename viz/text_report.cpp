#include "viz/text_report.h"

#include <cctype>
#include <functional>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>

#include "sim/did_you_mean.h"
#include "sim/units.h"
#include "viz/inference_report.h"
#include "viz/power_report.h"
#include "viz/serving_report.h"
#include "viz/system_report.h"

namespace hwsim {

namespace {
std::string seconds(double s) { return format_quantity(s, Dimension::time, 4); }
std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : "-"; }
std::string upper(std::string s) {
  for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
using Row = std::function<void(std::string_view, const std::string&)>;

// Language-model section: only for workloads that produce tokens (decode, prefill, generate).
void print_llm_section(std::ostream& out, const Workload& workload, const RunResult& r, const std::string& unit) {
  const LlmMetrics& m = r.llm;
  if (!m.present) return;
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "\n  language model\n");
  const bool prefill_only = m.joules_per_prompt_token > 0;
  if (m.prompt_tokens > 0)
    row("prompt tokens", fmt::format("{} in  ({:.1f} prompt tokens/s)", m.prompt_tokens, m.prefill_tokens_per_second));
  row(prefill_only ? "tokens out" : "tokens",
      fmt::format("{} in {} steps  ({:.1f} tokens/s)", m.tokens, m.steps.size(), m.tokens_per_second));
  if (m.ttft > 0) row("time to first token (TTFT)", seconds(m.ttft));
  if (m.tpot > 0) row("time per output token (TPOT)", fmt::format("{}  ({:.1f} decode tokens/s)", seconds(m.tpot),
                                                                   m.decode_tokens_per_second));
  row("MBU / MFU", fmt::format("{:.1f} % / {:.1f} %", 100 * m.mbu, 100 * m.mfu));
  if (workload.train) {
    row("HFU (recomputation counted)", fmt::format("{:.1f} %", 100 * m.hfu));
    row("  as PaLM defines them", "MFU: model FLOPs 6N + 12·L·H·Q·T per token; HFU: + the recomputed forward");
  }
  if (prefill_only)
    row("energy per prompt token", format_quantity(m.joules_per_prompt_token, Dimension::energy));
  else
    row("energy per token", fmt::format("{}  ({:.3g} tokens/J)", format_quantity(m.joules_per_token, Dimension::energy),
                                        m.tokens_per_joule));
  if (workload.llm) {
    const LlmFacts& f = *workload.llm;
    row("memory held", fmt::format("{}  (weights {}, KV cache {}, activations {})",
                                   format_quantity(f.total_bytes(), Dimension::bytes),
                                   format_quantity(f.weight_bytes, Dimension::bytes),
                                   format_quantity(f.kv_bytes, Dimension::bytes),
                                   format_quantity(f.activation_bytes, Dimension::bytes)));
  }
  fmt::print(out, "\n  {:<26} {:>12} {:>7} {:>12} {:>8}\n", "time by op class", "time", "share", "floor", unit + "s");
  for (const auto& [name, c] : m.by_class)
    fmt::print(out, "  {:<26} {:>12} {:>7} {:>12} {:>8}\n", name, seconds(c.seconds), percent(c.seconds, m.seconds),
               name == "launch_gaps" ? std::string("-") : seconds(c.roofline_floor), c.records);
  fmt::print(out, "\n  {:<22} {:>10} {:>7} {:>6} {:>7} {:>7}  {}\n", "time by operation", "time", "share", "x floor",
             unit + "s", "bound", "lowering (first " + unit + ")");
  for (const auto& [name, op] : m.by_operation)
    fmt::print(out, "  {:<22} {:>10} {:>7} {:>6} {:>7} {:>7}  {}\n", name.substr(0, 22), seconds(op.seconds),
               percent(op.seconds, m.seconds), op.roofline_floor > 0 ? fmt::format("{:.1f}", op.times_floor) : "-",
               op.records, op.bound, op.lowering);
  fmt::print(out, "\n  farthest from the roofline floor: each operation by its worst {}, most time above its floor first\n",
             unit);
  fmt::print(out, "  {:<22} {:>7} {:>10} {:>10} {:>7} {:>7}  {}\n", "operation", unit + "s", "time",
             "floor", "x floor", "bound", "worst (step, " + unit + ")");
  for (const auto& k : m.farthest_from_floor)
    fmt::print(out, "  {:<22} {:>7} {:>10} {:>10} {:>7.2f} {:>7}  {}\n", k.operation.substr(0, 22), k.records,
               seconds(k.seconds), seconds(k.roofline_floor), k.ratio, k.bound, k.step + " " + k.name);
}

// Traffic per memory level, near → far; the last (main memory) against its datasheet peak.
void print_traffic(const RunResult& r, const Row& row) {
  for (std::size_t i = 0; i < r.traffic.size(); ++i) {
    const auto& t = r.traffic[i];
    double rate = i < r.bandwidth.size() ? r.bandwidth[i] : 0;
    bool main = i + 1 == r.traffic.size();
    row(upper(t.level) + " traffic",
        fmt::format("{}  at {}{}", format_quantity(t.bytes, Dimension::bytes), format_quantity(rate, Dimension::bandwidth),
                    main ? fmt::format(" ({} of peak)", percent(rate, r.peak_memory_bandwidth)) : std::string()));
  }
}

void print_breakdown(std::ostream& out, const RunResult& r, const Row& row) {
  fmt::print(out, "\n  where the time went (averaged over {})\n", r.compute_unit);
  const auto& b = r.breakdown;
  auto line = [&](std::string_view label, double s) { row(label, fmt::format("{:>12}  {:>7}", seconds(s), percent(s, r.seconds))); };
  line("  compute", b.compute);
  line("  waiting on memory", b.memory);
  if (b.communication > 0) line("  communication", b.communication);
  line("  launch/fill/drain", b.overhead);
  line("  idle (tail, small work)", b.idle);
  if (r.details.empty()) return;
  fmt::print(out, "\n  {} figures (whole run{})\n", r.device_kind, r.system.present ? ", collectives' included" : "");
  for (const auto& d : r.details) row("  " + d.key, fmt::format("{:.4g}", d.value));
}

void print_records(std::ostream& out, const RunResult& r) {
  fmt::print(out, "\n  {:<24} {:>10} {:>9} {:>8} {:>15} {:>7}  {}\n", r.unit, "time", "TFLOP/s", "mem GB/s",
             r.summary_detail, "bound", "lowering");
  constexpr std::size_t kMaxShown = 40;
  std::size_t total = 0;
  for (const auto& step : r.steps) total += step.record_count;
  std::size_t shown = 0;
  for (const auto& step : r.steps) {
    for (const auto& k : step.records) {
      if (++shown > kMaxShown) break;
      fmt::print(out, "  {:<24} {:>10} {:>9.1f} {:>8.0f} {:>15.3g} {:>7}  {}\n", k.name.substr(0, 24), seconds(k.seconds),
                 k.achieved_flop_rate / 1e12, k.memory_bandwidth_achieved / 1e9, k.detail(r.summary_detail), k.bound,
                 k.config);
    }
  }
  if (total > kMaxShown) fmt::print(out, "  ... {} {}s in all (see --json)\n", total, r.unit);
}

}  // namespace

void print_text_report(std::ostream& out, const Config& config, const Workload& workload, const RunResult& r,
                       bool hint_json) {
  Row row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "hwsim {} · chip {} ({}, {}) · level {}\n", HWSIM_VERSION, config.text("name"), config.chip_path(),
             r.device_kind, r.level);
  fmt::print(out, "workload {}\n", workload.spec);
  if (!config.overrides().empty()) fmt::print(out, "set {}\n", join(config.overrides(), " "));
  fmt::print(out, "\n");
  if (r.inference.present) return print_inference_report(out, r);  // a microcontroller: its own words
  if (r.serving.present) return print_serving_report(out, r);  // requests over time: docs/serving.md
  row("simulated time", seconds(r.seconds));
  if (r.devices > 1) row("figures below", fmt::format("one device's, averaged over the {:g} devices used", r.devices));
  if (r.flops > 0 || r.min_bytes > 0) {  // not for a run of collectives alone
    row("roofline floor", fmt::format("{}  (simulated is {:.2f}x the floor)", seconds(r.roofline_floor), r.times_floor));
    row("achieved", fmt::format("{}  ({:.1f} % of {} peak{})", format_quantity(r.achieved_flop_rate, Dimension::flop_rate),
                                r.percent_of_peak, format_quantity(r.peak_flop_rate, Dimension::flop_rate),
                                r.peak_clock.empty() ? std::string()
                                                     : " at " + r.peak_clock + "; a datasheet may quote another clock"));
    row("arithmetic intensity", fmt::format("{:.1f} FLOP/B vs ridge {:.1f} FLOP/B → {}-bound", r.arithmetic_intensity,
                                            r.ridge_point, r.bound));
    print_traffic(r, row);
  }
  print_power_section(out, r);
  print_breakdown(out, r, row);
  print_system_section(out, r);
  if (!workload.llm && !r.system.collectives_only()) print_records(out, r);
  print_llm_section(out, workload, r, r.unit);
  if (workload.llm && hint_json)
    fmt::print(out, "\n  every {}, with its start, end, details and bytes per level: --json FILE\n", r.unit);
}

}  // namespace hwsim
