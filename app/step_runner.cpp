#include "app/step_runner.h"

#include "ops/tensor_ids.h"
#include "workloads/passes/framework_pass.h"

namespace hwsim {

StepRunner::StepRunner(sc_core::sc_module_name name, Device& device, const Workload& workload, std::string framework)
    : sc_core::sc_module(name), device_(device), workload_(workload), framework_(std::move(framework)) {
  SC_THREAD(run);
}

void StepRunner::run() {
  try {
    for (const auto& step : workload_.steps) results_.push_back(run_step(step));
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

StepResult StepRunner::run_step(const WorkloadStep& step) {
  std::optional<OpGraph> rewritten = FrameworkPasses::get(framework_).apply(step.graph);
  const OpGraph& graph = rewritten ? *rewritten : step.graph;
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
