#include "run/metrics/inference_metrics.h"

#include <algorithm>

#include "sim/arith.h"

namespace hwsim {
namespace {

// The lowering writes "... (fallback: REASON)" into a fallen-back record's config.
std::string fallback_reason(const std::string& config) {
  const std::string tag = "(fallback: ";
  std::size_t at = config.find(tag);
  if (at == std::string::npos) return config;
  std::string rest = config.substr(at + tag.size());
  if (!rest.empty() && rest.back() == ')') rest.pop_back();
  return rest;
}

double capacity(const DeviceInfo& d, const std::string& level) {
  for (const auto& m : d.memory)
    if (m.name == level) return m.bytes;
  return 0;
}

// Placement and fallbacks from the first inference (every step runs the same plan).
void first_step(InferenceMetrics& m, const StepResult& step) {
  for (const WorkRecord& k : step.records) {
    m.arena_peak = std::max(m.arena_peak, k.detail("arena_bytes"));
    double w = k.detail("weight_bytes");
    int home = int(k.detail("weights_home"));
    (home == 0 ? m.weights_in_sram : home == 1 ? m.weights_in_flash : m.weights_in_ext) += w;
    m.weight_bytes += w;
    if (k.detail("fallback") > 0) m.fallbacks.push_back({k.name, k.op_class, fallback_reason(k.config), k.seconds});
  }
}

}  // namespace

InferenceMetrics compute_inference_metrics(const RunResult& r, const DeviceInfo& device) {
  InferenceMetrics m;
  if (!device.static_memory_plan || r.steps.empty()) return m;
  m.present = true;
  m.inferences = std::int64_t(r.steps.size());
  double n = double(m.inferences);
  m.latency = r.seconds / n;
  m.inferences_per_second = ratio(1.0, m.latency);
  m.energy = r.energy / n;
  double cycles = 0;
  for (const auto& step : r.steps)
    for (const WorkRecord& k : step.records) {
      InferenceEngineTime& e = k.detail("engine") == 0 ? m.npu : m.cpu;
      e.seconds += k.seconds / n;
      e.macs += k.detail("macs") / n;
      e.ops += 1;
      m.macs += k.detail("macs") / n;
      cycles += k.detail("cycles") / n;
    }
  m.npu.ops /= m.inferences;
  m.cpu.ops /= m.inferences;
  m.macs_per_cycle = ratio(m.macs, cycles);
  first_step(m, r.steps.front());
  m.sram_bytes = capacity(device, "sram");
  m.flash_bytes = capacity(device, "flash");
  m.ext_bytes = capacity(device, "ext");
  m.flash_traffic = r.bytes_at("flash") / n;
  return m;
}

}  // namespace hwsim
