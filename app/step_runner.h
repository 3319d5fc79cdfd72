#pragma once
// The generic runner's SystemC process: runs every step of a workload on one device, back to back
// (what one step leaves on chip is there for the next, as in a serving loop). For each step, just
// before it runs (so only one step's graph is ever built or rewritten): its graph (lowered now for
// a step lowered just in time), the framework pass, tensor identities, then Device::run_step; the
// step's result goes to the consumer at once. The last step's graph is held until the next one:
// a step that can be had by reshaping it (WorkloadStep::reshape) is, without lowering or passing
// it again. Knows no kind of hardware.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sim/device/device.h"
#include "sim/engine/systemc.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

class StepRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(StepRunner);
  // Receives each step's result (records in order, times from the step's start) as soon as the
  // step has run, in step order.
  using Consumer = std::function<void(StepResult&&)>;
  // `framework`: the registered frontend pass every step goes through (workloads/passes). A failure
  // (a UserError from lowering) stops the simulation: rethrow_simulation_failure() after sc_start().
  StepRunner(sc_core::sc_module_name name, Device& device, const Workload& workload, std::string framework,
             Consumer consume);

 private:
  void run();  // SC_THREAD
  StepResult run_step(const WorkloadStep& step);
  void hold(const WorkloadStep& step);  // the step's graph lowered and passed, and its program
  bool reshaped(const WorkloadStep& step);  // the held graph made this step's (true), or not


  Device& device_;
  const Workload& workload_;
  std::string framework_;
  Consumer consume_;
  // The graph of the step run last: as lowered (a step lowered just in time), its framework pass's
  // rewrite (when the pass rewrote it), and the program over the one that ran.
  std::unique_ptr<OpGraph> lowered_;
  std::unique_ptr<std::optional<OpGraph>> rewritten_;
  StepProgram program_;
};

}  // namespace hwsim
