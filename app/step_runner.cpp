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
  std::unique_ptr<OpGraph> lowered;
  const OpGraph& original = step_graph(step, lowered);
  std::optional<OpGraph> rewritten = FrameworkPasses::get(framework_).apply(original);
  const OpGraph& graph = rewritten ? *rewritten : original;
  StepProgram program;
  program.graph = &graph;
  program.order = execution_order(graph);
  program.tensors = tensor_ids(graph);
  StepResult result;
  result.label = step.label;
  double start = sim_now();
  result.records = device_.run_step(program);
  result.seconds = sim_now() - start;
  return result;
}

}  // namespace hwsim
