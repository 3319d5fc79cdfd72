#include "run/runner.h"

#include "sim/registry.h"

namespace hwsim {

const char* runner_for(const RunRequest& request) {
  if (request.workload.serve) return "serving";  // requests over time, on a chip or a system
  return request.system ? "system" : "single";
}

RunResult simulate(const RunRequest& request) {
  const Config& chosen_by = request.system ? *request.system : request.chip;
  return Registry<Runner>::create(runner_for(request), chosen_by, "workload")->run(request);
}

RunResult simulate(const Config& chip, const Workload& workload, const RunStreams& streams) {
  return simulate(RunRequest{chip, nullptr, workload, streams});
}

RunResult simulate_system(const Config& system, const Config& chip, const Workload& workload,
                          const RunStreams& streams) {
  return simulate(RunRequest{chip, &system, workload, streams});
}

}  // namespace hwsim
