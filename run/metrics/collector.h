#pragma once
// Every metric of a run, derived once and the same way for every runner (one chip, a system,
// serving): each step goes to the collector as soon as it has run, which derives its records'
// figures and adds them to the run's sums (ResultBuilder), power (PowerBuilder) and language-model
// metrics (LlmMetricsBuilder), hands the step to the output sinks, and keeps or drops its records.
// A runner adds the parts only it has (a system's stages and links, serving's requests), which
// finish after the run's sums and before the language-model metrics (which read them).
#include <memory>
#include <vector>

#include "ops/device.h"
#include "run/metrics/llm_metrics.h"
#include "run/simulate.h"
#include "sim/power_builder.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// Metrics only some runners have.
class MetricsPart {
 public:
  virtual ~MetricsPart() = default;
  // The next step, its records finalized, before the sinks see it.
  virtual void add_step(const StepResult& /*step*/) {}
  // Fills its part of `result`, whose sums and power are derived.
  virtual void finish(RunResult& result) = 0;
};

class RunCollector {
 public:
  // `device`: what the run's devices are (they are of one chip). `devices`: the simulated devices
  // whose records the steps hold (a system's pipeline stages; 1 otherwise). `keep`: whether step
  // records stay in the result (the pictures and some printers read them), else only each step's
  // label, time and record count.
  RunCollector(const Workload& workload, const DeviceInfo& device, const RunStreams& streams, std::size_t devices,
               bool keep);
  void add_part(std::unique_ptr<MetricsPart> part) { parts_.push_back(std::move(part)); }

  void add_step(StepResult&& step);
  // Every metric, once, after the run.
  RunResult finish();

 private:
  const Workload& workload_;
  const DeviceInfo& device_;
  const RunStreams& streams_;
  bool keep_;
  RunResult result_;
  ResultBuilder totals_;
  LlmMetricsBuilder llm_;
  PowerBuilder power_;
  std::vector<std::unique_ptr<MetricsPart>> parts_;
};

// Copies what the device says about its records (level, kind, unit, memory levels, TDP) into a result.
void describe_device(RunResult& result, const DeviceInfo& device);

}  // namespace hwsim
