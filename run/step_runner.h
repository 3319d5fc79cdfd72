#pragma once
// The SystemC process that runs a workload's steps, back to back (what one step leaves on chip is
// there for the next, as in a serving loop), on one device or a system's stages (StepExecutor).
// For each step, just before it runs (so only one step's graph is ever built or rewritten): its
// program (run/program.h), then the executor; the step's result goes to the consumer at once. The
// last step's program is held until the next one: a step that can be had by reshaping its graph
// (WorkloadStep::reshape) is, without lowering or passing it again. Knows no kind of hardware.
#include <functional>
#include <string>

#include "run/program.h"
#include "run/step_executor.h"
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
  StepRunner(sc_core::sc_module_name name, StepExecutor executor, const Workload& workload, std::string framework,
             Consumer consume);

  // After sc_start(): every step ran (false: the ops waited on each other, a bug in the graph).
  bool finished() const { return done_ == workload_.steps.size(); }

 private:
  void run();  // SC_THREAD
  bool reshaped(const WorkloadStep& step);  // the held program made this step's (true), or not

  StepExecutor executor_;
  const Workload& workload_;
  std::string framework_;
  Consumer consume_;
  Program program_;  // the step run last
  std::size_t done_ = 0;
};

}  // namespace hwsim
