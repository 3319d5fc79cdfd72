#include "viz/inference_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <ostream>

#include "sim/units.h"
#include "viz/power_report.h"

namespace hwsim {
namespace {

std::string seconds(double s) { return format_quantity(s, Dimension::time, 4); }
std::string bytes(double b) { return format_binary_bytes(b); }  // memories are sized in KiB, MiB
std::string share(double part, double whole) { return whole > 0 ? fmt::format("{:.0f} %", 100 * part / whole) : "-"; }

void print_placement(std::ostream& out, const InferenceMetrics& m) {
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "\n  where the bytes live (the model fits)\n");
  row("weights", fmt::format("{}  (SRAM {}, flash {}{})", bytes(m.weight_bytes), bytes(m.weights_in_sram),
                             bytes(m.weights_in_flash), m.ext_bytes > 0 ? ", external " + bytes(m.weights_in_ext) : ""));
  row("activation arena (peak)", fmt::format("{}  in SRAM", bytes(m.arena_peak)));
  row("SRAM used", fmt::format("{} of {}  ({})", bytes(m.arena_peak + m.weights_in_sram), bytes(m.sram_bytes),
                               share(m.arena_peak + m.weights_in_sram, m.sram_bytes)));
  row("flash used by weights", fmt::format("{} of {}", bytes(m.weights_in_flash), bytes(m.flash_bytes)));
  row("flash read per inference", bytes(m.flash_traffic));
}

void print_engines(std::ostream& out, const InferenceMetrics& m) {
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  fmt::print(out, "\n  engines (per inference)\n");
  if (m.npu.ops > 0)
    row("NPU", fmt::format("{} ops  {}  ({})  {:.3g} MACs", m.npu.ops, seconds(m.npu.seconds),
                           share(m.npu.seconds, m.latency), m.npu.macs));
  row("CPU", fmt::format("{} ops  {}  ({})  {:.3g} MACs", m.cpu.ops, seconds(m.cpu.seconds),
                         share(m.cpu.seconds, m.latency), m.cpu.macs));
  if (m.fallbacks.empty()) {
    if (m.npu.ops > 0) row("fell back to the CPU", "none");
    return;
  }
  row("fell back to the CPU", fmt::format("{} ops", m.fallbacks.size()));
  for (const auto& f : m.fallbacks)
    fmt::print(out, "    {:<22} {:>10}  {}\n", f.op.substr(0, 22), seconds(f.seconds), f.reason);
}

void print_ops(std::ostream& out, const RunResult& r) {
  fmt::print(out, "\n  {:<16} {:<6} {:>10} {:>10} {:>9} {:>10} {:>10}  {}\n", "op", "engine", "time", "MACs",
             "MACs/cyc", "SRAM", "flash", "lowering");
  constexpr std::size_t kMaxShown = 60;
  std::size_t shown = 0;
  for (const auto& k : r.steps.front().records) {
    if (++shown > kMaxShown) break;
    fmt::print(out, "  {:<16} {:<6} {:>10} {:>10.4g} {:>9.3g} {:>10} {:>10}  {}\n", k.name.substr(0, 16),
               k.detail("engine") == 0 ? "npu" : "cpu", seconds(k.seconds), k.detail("macs"),
               k.detail("macs_per_cycle"), bytes(k.bytes_at("sram")), bytes(k.bytes_at("flash")), k.config);
  }
  if (r.steps.front().records.size() > kMaxShown) fmt::print(out, "  ... (see --json)\n");
}

}  // namespace

void print_inference_report(std::ostream& out, const RunResult& r) {
  const InferenceMetrics& m = r.inference;
  auto row = [&](std::string_view label, const std::string& value) { fmt::print(out, "  {:<28} {}\n", label, value); };
  row("latency per inference", seconds(m.latency) + (m.inferences > 1 ? fmt::format("  (mean of {})", m.inferences) : ""));
  row("inferences per second", fmt::format("{:.1f}", m.inferences_per_second));
  row("MACs per inference", fmt::format("{:.4g}", m.macs));
  row("MACs per cycle (achieved)", fmt::format("{:.2f}", m.macs_per_cycle));
  row("energy per inference", fmt::format("{}  (average {})", format_quantity(m.energy, Dimension::energy),
                                          format_quantity(r.average_power, Dimension::power)));
  if (r.power.by_part.size() > 1) row("  by component", energy_shares(r));
  if (r.roofline_floor > 0)
    row("roofline floor", fmt::format("{}  (simulated is {:.2f}x the floor)", seconds(r.roofline_floor / double(m.inferences)),
                                      r.times_floor));
  print_placement(out, m);
  print_engines(out, m);
  print_ops(out, r);
}

nlohmann::json inference_json(const RunResult& r) {
  const InferenceMetrics& m = r.inference;
  if (!m.present) return nullptr;
  auto engine = [](const InferenceEngineTime& e) { return nlohmann::json{{"seconds", e.seconds}, {"macs", e.macs}, {"ops", e.ops}}; };
  nlohmann::json fallbacks = nlohmann::json::array();
  for (const auto& f : m.fallbacks)
    fallbacks.push_back({{"op", f.op}, {"op_class", f.op_class}, {"reason", f.reason}, {"seconds", f.seconds}});
  return {{"inferences", m.inferences}, {"latency", m.latency}, {"inferences_per_second", m.inferences_per_second},
          {"macs", m.macs}, {"macs_per_cycle", m.macs_per_cycle}, {"energy", m.energy},
          {"weight_bytes", m.weight_bytes}, {"weights_in_sram", m.weights_in_sram},
          {"weights_in_flash", m.weights_in_flash}, {"weights_in_ext", m.weights_in_ext},
          {"arena_peak", m.arena_peak}, {"sram_bytes", m.sram_bytes}, {"flash_bytes", m.flash_bytes},
          {"ext_bytes", m.ext_bytes}, {"flash_traffic", m.flash_traffic}, {"npu", engine(m.npu)},
          {"cpu", engine(m.cpu)}, {"fallbacks", fallbacks}};
}

}  // namespace hwsim
