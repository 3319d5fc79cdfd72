#pragma once
// The system runner's SystemC process: runs every step of a workload on a system of devices.
// Per step (after the framework pass), each pipeline stage walks its ops in execution order on its
// own process; an op starts once all its graph predecessors have finished, on any stage:
// - device ops run in segments (consecutive ops of the stage that wait on nothing outside it) on
//   the stage's representative device (Device::run_step): its tp/ep/dp ranks do the same sharded
//   work, so one device stands for them;
// - a collective runs on the links (models/cluster) in every group along its axis at once; the
//   stage waits for it, unless it is asynchronous (gradient buckets) or a pipeline send, which run
//   beside the stage's next ops; the step ends when every one has finished.
// Knows no kind of hardware.
#include <string>
#include <vector>

#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "sim/device/device.h"
#include "sim/engine/systemc.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

class SystemRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SystemRunner);
  // stage_devices[s]: the representative device of pipeline stage s.
  SystemRunner(sc_core::sc_module_name name, std::vector<Device*> stage_devices, Fabric& fabric,
               const SystemSpec& system, const Workload& workload, std::string framework);

  // After sc_start() and rethrow_simulation_failure(): one StepResult per step; records carry
  // their stage in WorkRecord::device, times from the step's start.
  std::vector<StepResult> take_results() { return std::move(results_); }
  // Every step ran (false after sc_start(): the ops waited on each other, a bug in the workload's graph).
  bool finished() const { return results_.size() == workload_.steps.size(); }

 private:
  struct StepState;
  void run();  // SC_THREAD
  StepResult run_step(const WorkloadStep& step);
  void run_stage(StepState& st, int stage);
  void run_segment(StepState& st, int stage, const std::vector<OpVertex>& segment);
  void run_collective_op(StepState& st, OpVertex v, bool detached);
  // Waits until every graph predecessor of v not in `beside` has finished.
  void wait_for_inputs(StepState& st, OpVertex v, const std::vector<OpVertex>& beside);

  std::vector<Device*> devices_;
  Fabric& fabric_;
  const SystemSpec& system_;
  const Workload& workload_;
  std::string framework_;
  std::vector<StepResult> results_;
};

}  // namespace hwsim
