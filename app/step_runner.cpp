#include "app/step_runner.h"

#include <memory>
#include <optional>

#include "app/progress.h"

#include "ops/tensor_ids.h"
#include "workloads/passes/framework_pass.h"

namespace hwsim {

StepRunner::StepRunner(sc_core::sc_module_name name, Device& device, const Workload& workload, std::string framework,
                       Consumer consume)
    : sc_core::sc_module(name), device_(device), workload_(workload), framework_(std::move(framework)),
      consume_(std::move(consume)) {
  SC_THREAD(run);
}

void StepRunner::run() {
  try {
    // A bar only for runs of several steps (generate), only on a terminal, never in a sweep's child.
    const bool several = workload_.steps.size() > 1;
    ProgressBar bar(several ? "simulate" : "", workload_.steps.size(), "steps");
    std::size_t done = 0;
    for (const auto& step : workload_.steps) {
      consume_(run_step(step));
      if (several) bar.update(++done);
    }
    bar.finish();
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

StepResult StepRunner::run_step(const WorkloadStep& step) {
  if (!reshaped(step)) hold(step);
  StepResult result;
  result.label = step.label;
  double start = sim_now();
  result.records = device_.run_step(program_);
  result.seconds = sim_now() - start;
  return result;
}

// The order and tensors of a reshaped graph are the held ones: a reshape changes shapes only.
bool StepRunner::reshaped(const WorkloadStep& step) {
  if (!step.reshape || !program_.graph) return false;
  OpGraph* graph = rewritten_ && *rewritten_ ? &**rewritten_ : lowered_.get();
  return graph == program_.graph && step.reshape(*graph);
}

void StepRunner::hold(const WorkloadStep& step) {
  program_ = {};
  rewritten_.reset();
  const OpGraph& original = step_graph(step, lowered_);
  if (!step.lower) lowered_.reset();  // the workload's own graph: not ours to reshape
  rewritten_.reset(new std::optional<OpGraph>(FrameworkPasses::get(framework_).apply(original)));
  const OpGraph& graph = *rewritten_ ? **rewritten_ : original;
  program_.graph = &graph;
  program_.order = execution_order(graph);
  program_.tensors = tensor_ids(graph);
}

}  // namespace hwsim
