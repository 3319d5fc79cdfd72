#include "app/simulate.h"

#include <fmt/format.h>
#include <stdexcept>

#include "app/inference_metrics.h"
#include "app/llm_metrics.h"
#include "app/serving_simulate.h"
#include "app/step_runner.h"
#include "sim/device/device.h"
#include "sim/error.h"
#include "sim/power_builder.h"
#include "sim/registry.h"
#include "sim/units.h"
#include "workloads/llm/capacity.h"

namespace hwsim {

// A language-model run must hold its weights, KV cache and activations in the device's main
// memory; any other workload at least the inputs and outputs of each of its ops.
void check_capacity(const DeviceInfo& device, const Workload& workload) {
  double capacity = device.main_memory().bytes;
  if (!workload.stage_footprint.empty()) {  // a training job on one device
    const DeviceFootprint& f = workload.stage_footprint.front();
    if (f.total() > capacity)
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
    const LlmFacts& f = *workload.llm;
    if (footprint_bytes(f, f.batch, f.context) > capacity)
      workload_error("workload '" + workload.spec + "' does not fit " + device.name + ": " +
                     fit_advice(workload, capacity));
    return;
  }
  if (device.static_memory_plan) return;  // the device places tensors itself and refuses what does not fit
  for (const auto& step : workload.steps)
    for (OpVertex v : execution_order(step.graph)) {
      double bytes = op_min_bytes(step.graph[v]);
      if (bytes > capacity)
        workload_error(fmt::format("workload '{}' does not fit {}: {} reads and writes {} of tensors, the {} holds {}",
                                   workload.spec, device.name, step.graph[v].name,
                                   format_quantity(bytes, Dimension::bytes), device.main_memory().name,
                                   format_quantity(capacity, Dimension::bytes)));
    }
}

namespace {
// A device's records are named by its schema: its memory levels, in order, and at most the
// inline capacity of levels and details (a device that breaks this is a bug).
void check_schema(const DeviceInfo& device) {
  const RecordSchema* s = device.schema.get();
  bool levels_match = s && s->levels.size() == device.memory.size();
  for (std::size_t i = 0; levels_match && i < s->levels.size(); ++i) levels_match = s->levels[i] == device.memory[i].name;
  if (!levels_match || s->levels.size() > kMaxLevels || s->details.size() > kMaxDetails)
    throw std::logic_error("device '" + device.kind + "': its record schema does not name its memory levels in order, "
                           "or holds more than the inline levels and details");
}

}  // namespace

void describe_device(RunResult& result, const DeviceInfo& device) {
  result.level = device.level;
  result.device_kind = device.kind;
  result.unit = device.unit;
  result.summary_detail = device.summary_detail;
  result.compute_unit = device.compute_unit;
  result.tdp = device.tdp;
  result.max_clock = device.max_clock;
  result.peak_clock = device.peak_clock;
  for (const auto& level : device.memory) {
    result.memory_levels.push_back(level.name);
    result.memory_level_bandwidth.push_back(level.bandwidth);
  }
}

RunResult simulate(const Config& config, const Workload& workload, const RunStreams& streams) {
  if (workload.serve) return simulate_serving(config, workload);  // requests over time
  if (!workload.parallel.single())
    workload_error(fmt::format("workload '{}' runs on {} devices: give a system of chips (--system NAME, e.g. "
                               "--system h200x2; hwsim list systems)", workload.spec, workload.parallel.ranks()));
  init_systemc();
  auto device = Registry<Device>::create(config.kind(), config, config.value("kind").origin + ": kind");
  check_schema(device->info());
  check_capacity(device->info(), workload);
  std::string framework = workload.framework.empty() ? device->info().framework : workload.framework;
  RunResult result;
  describe_device(result, device->info());
  // Metrics are derived as each step finishes; its records then go to the sinks and are dropped
  // unless kept, so a long run's memory does not grow with its length.
  const bool keep = streams.keep_records || workload.steps.size() <= 1 || device->info().static_memory_plan;
  ResultBuilder totals(result.memory_levels, 1);
  LlmMetricsBuilder llm(workload);
  PowerBuilder power(result.max_clock);
  StepRunner runner("runner", *device, workload, framework, [&](StepResult&& step) {
    totals.add_step(step);
    llm.add_step(step);
    power.add_step(step);
    for (StepSink* sink : streams.sinks) sink->add_step(step);
    if (!keep) std::vector<WorkRecord>().swap(step.records);
    result.steps.push_back(std::move(step));
  });
  sc_core::sc_start();
  rethrow_simulation_failure();
  totals.finish(result);
  result.power = power.finish(result.seconds, result.flops, result.energy);  // from every record, kept or not
  result.llm = llm.finish(result);
  result.inference = compute_inference_metrics(result, device->info());
  return result;
}

}  // namespace hwsim
