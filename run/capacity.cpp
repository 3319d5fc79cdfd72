#include "run/capacity.h"

#include <fmt/format.h>

#include "sim/error.h"
#include "sim/units.h"
#include "workloads/llm/capacity.h"

namespace hwsim {

namespace {
// Bytes of the scales the device's kernels keep beside `elements` weights stored in `dtype`.
double scale_bytes(const DeviceInfo& d, DType dtype, double elements) {
  return elements * d.weight_scale_bytes[std::size_t(dtype)];
}

// The run's facts and stage footprints as the device holds them: its scales beside the weight-only
// weights.
LlmFacts as_held(const DeviceInfo& d, LlmFacts f) {
  f.weight_bytes += scale_bytes(d, f.weights_dtype, f.quantised_weights);
  return f;
}

std::vector<DeviceFootprint> as_held(const DeviceInfo& d, const Workload& w) {
  std::vector<DeviceFootprint> out = w.stage_footprint;
  DType dtype = w.llm ? w.llm->weights_dtype : DType::bf16;
  for (DeviceFootprint& f : out) f.weights += scale_bytes(d, dtype, f.quantised_weights);
  return out;
}

// Whether `need` bytes fit: the device's main memory holds them, or the device grew its parts to.
bool holds(const DeviceInfo& device, DeviceParts* parts, double need) {
  return need <= device.main_memory().bytes || (parts && parts->fit_parts(need));
}
}  // namespace

// A language-model run must hold its weights, KV cache and activations in the device's main
// memory; any other workload at least the inputs and outputs of each of its ops.
void check_capacity(const DeviceInfo& device, const Workload& workload, DeviceParts* parts) {
  double capacity = device.main_memory().bytes;
  if (!workload.stage_footprint.empty()) {  // a training job on one device
    const DeviceFootprint& f = workload.stage_footprint.front();
    if (!holds(device, parts, f.total()))
      workload_error(fmt::format("workload '{}' does not fit {}: it holds {} (weights {}, gradients {}, optimizer {}, "
                                 "activations {}), the {} holds {}{}{}",
                                 workload.spec, device.name, format_quantity(f.total(), Dimension::bytes),
                                 format_quantity(f.weights, Dimension::bytes), format_quantity(f.gradients, Dimension::bytes),
                                 format_quantity(f.optimizer, Dimension::bytes),
                                 format_quantity(f.activations, Dimension::bytes), device.main_memory().name,
                                 format_quantity(capacity, Dimension::bytes), workload.fit_advice ? ". " : "",
                                 workload.fit_advice ? workload.fit_advice(capacity) : std::string()));
    return;
  }
  if (workload.llm) {
    LlmFacts f = as_held(device, *workload.llm);
    double need = footprint_bytes(f, f.batch, f.context);
    if (!holds(device, parts, need))
      workload_error("workload '" + workload.spec + "' does not fit " + device.name + ": " + fit_advice(f, capacity) +
                     (parts ? "; " + parts->parts_advice(need) : ""));
    return;
  }
  if (device.static_memory_plan) return;  // the device places tensors itself and refuses what does not fit
  for (const auto& step : workload.steps)
    for (OpVertex v : execution_order(step.graph)) {
      double bytes = op_min_bytes(step.graph[v]);
      if (!holds(device, parts, bytes))
        workload_error(fmt::format("workload '{}' does not fit {}: {} reads and writes {} of tensors, the {} holds {}{}",
                                   workload.spec, device.name, step.graph[v].name,
                                   format_quantity(bytes, Dimension::bytes), device.main_memory().name,
                                   format_quantity(device.main_memory().bytes, Dimension::bytes),
                                   parts ? "; " + parts->parts_advice(bytes) : ""));
    }
}

// A layout needs ranks ≤ devices; each stage's devices must hold what the workload keeps there.
void check_system_capacity(const SystemSpec& s, const Workload& w, const DeviceInfo& device) {
  const Parallelism& p = w.parallel;
  if (p.ranks() > s.devices())
    workload_error(fmt::format("workload '{}' needs {} devices (tp={} × pp={} × ep={} × dp={}); system {} has {}",
                               w.spec, p.ranks(), p.tp, p.pp, p.ep, p.dp, s.name, s.devices()));
  double capacity = device.main_memory().bytes;
  if (w.stage_footprint.empty()) check_capacity(device, w);  // one device's worth on each rank
  std::vector<DeviceFootprint> held = as_held(device, w);
  for (std::size_t stage = 0; stage < held.size(); ++stage) {
    const DeviceFootprint& f = held[stage];
    if (f.total() <= capacity) continue;
    std::string advice = w.fit_advice ? w.fit_advice(capacity) : stage_fit_advice(w, held, stage, capacity);
    workload_error(fmt::format(
        "workload '{}' does not fit: each device of stage {} holds {} (weights {}, KV cache {}, activations {}, "
        "gradients {}, optimizer {}), a {} {} holds {}{}{}",
        w.spec, stage, format_quantity(f.total(), Dimension::bytes), format_quantity(f.weights, Dimension::bytes),
        format_quantity(f.kv_cache, Dimension::bytes), format_quantity(f.activations, Dimension::bytes),
        format_quantity(f.gradients, Dimension::bytes), format_quantity(f.optimizer, Dimension::bytes), device.name,
        device.main_memory().name, format_quantity(capacity, Dimension::bytes), advice.empty() ? "" : ". ", advice));
  }
  // A collective's buffer must fit each rank (after the stages' footprints, which come with advice
  // on a layout that fits).
  for (const auto& step : w.steps)
    for (auto [v, end] = boost::vertices(step.graph); v != end; ++v)
      if (const auto* c = std::get_if<CollectiveOp>(&step.graph[*v].shape); c && c->bytes > capacity)
        workload_error(fmt::format("workload '{}' does not fit: {} of {} per rank, a {} {} holds {}", w.spec,
                                   step.graph[*v].name, format_quantity(c->bytes, Dimension::bytes), device.name,
                                   device.main_memory().name, format_quantity(capacity, Dimension::bytes)));
}

}  // namespace hwsim
