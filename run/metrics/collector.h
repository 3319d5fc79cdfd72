#pragma once
// Every metric of a run, derived once and the same way for every runner (one chip, a system,
// serving). Work reaches the collector as it is done — a step as soon as it has run (one chip, a
// system's stages), or a span of already-summed work on the run's timeline (a serving pass) — and
// goes to the run's summary (ResultBuilder: per device, idle power over the time no work covers)
// and the language-model metrics (LlmMetricsBuilder); a step then goes to the output sinks and its
// records are kept or dropped. A runner adds the parts only it has (a system's stages and links,
// serving's requests), which finish after the summary and before the language-model metrics
// (which read them).
#include <memory>
#include <vector>

#include "ops/device.h"
#include "run/metrics/llm_metrics.h"
#include "run/simulate.h"
#include "sim/result.h"
#include "sim/result_builder.h"
#include "workloads/workload.h"

namespace hwsim {

// Metrics only some runners have.
class MetricsPart {
 public:
  virtual ~MetricsPart() = default;
  // The next step, its records finalized, before the sinks see it.
  virtual void add_step(const StepResult& /*step*/) {}
  // Fills its part of `result`, whose summary is derived from `sums` (per simulated device).
  virtual void finish(RunResult& result, const ResultBuilder& sums) = 0;
};

class RunCollector {
 public:
  // `device`: what the run's devices are (they are of one chip). `ranks[d]`: the devices simulated
  // device d stands for ({1} on one chip). A run of one step keeps its records in the result; a run
  // of several (a long generate) keeps each step's label, time and record count once the sinks have
  // its records, unless the streams keep them (the pictures draw records) or the device's own
  // figures need them (a microcontroller's inference metrics).
  RunCollector(const Workload& workload, const DeviceInfo& device, const RunStreams& streams,
               std::vector<double> ranks);
  void add_part(std::unique_ptr<MetricsPart> part) { parts_.push_back(std::move(part)); }

  // The next step on the run's timeline.
  void add_step(StepResult&& step);
  // Work on the timeline (ResultBuilder::add_span, add_idle): a serving pass, a gap between passes.
  void add_span(std::size_t device, const RunTotals& work, double start, double end);
  void add_idle(std::size_t device, double start, double end);
  // A step kept for its records only (a serving pass's distinct shape, for the kernel table and
  // pictures): its records derived, nothing added to the sums.
  void keep_step(StepResult&& step);

  // Every metric, once, after the run. `span`: the run's seconds when its work came as spans.
  RunResult finish(double span = -1);

 private:
  const Workload& workload_;
  const DeviceInfo& device_;
  const RunStreams& streams_;
  bool keep_;
  RunResult result_;
  ResultBuilder sums_;
  LlmMetricsBuilder llm_;
  std::vector<std::unique_ptr<MetricsPart>> parts_;
};

// Copies what the device says about its records (level, kind, unit, memory levels, power) into a result.
void describe_device(RunResult& result, const DeviceInfo& device);

}  // namespace hwsim
