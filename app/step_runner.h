#pragma once
// The generic runner's SystemC process: runs every step of a workload on one device, back to back
// (what one step leaves on chip is there for the next, as in a serving loop). For each step, just
// before it runs (so only one step's graph is ever rewritten): the framework pass, tensor
// identities, then Device::run_step. Knows no kind of hardware.
#include <string>
#include <vector>

#include "sim/device/device.h"
#include "sim/engine/systemc.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

class StepRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(StepRunner);
  // `framework`: the registered frontend pass every step goes through (workloads/passes).
  StepRunner(sc_core::sc_module_name name, Device& device, const Workload& workload, std::string framework);

  // After sc_start() (and rethrow_simulation_failure(): what stopped the run early, such as a
  // UserError from lowering, reaches the caller as itself): one StepResult per step, records in
  // order, times from the step's start.
  std::vector<StepResult> take_results() { return std::move(results_); }

 private:
  void run();  // SC_THREAD
  StepResult run_step(const WorkloadStep& step);

  Device& device_;
  const Workload& workload_;
  std::string framework_;
  std::vector<StepResult> results_;
};

}  // namespace hwsim
