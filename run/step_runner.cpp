#include "run/step_runner.h"

namespace hwsim {

StepRunner::StepRunner(sc_core::sc_module_name name, StepExecutor executor, const Workload& workload,
                       std::string framework, Consumer consume)
    : sc_core::sc_module(name), executor_(std::move(executor)), workload_(workload),
      framework_(std::move(framework)), consume_(std::move(consume)) {
  SC_THREAD(run);
}

void StepRunner::run() {
  try {
    for (const auto& step : workload_.steps) {
      if (!reshaped(step)) program_ = make_program(step, framework_);
      StepResult result = executor_.run(program_.step);
      result.label = step.label;
      ++done_;
      consume_(std::move(result));
    }
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

// The order and tensors of a reshaped graph are the held ones: a reshape changes shapes only.
bool StepRunner::reshaped(const WorkloadStep& step) {
  OpGraph* graph = program_.held_graph();
  return step.reshape && graph && step.reshape(*graph);
}

}  // namespace hwsim
