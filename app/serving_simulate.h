#pragma once
// A `serve` run (docs/serving.md): builds the serving instances (each sizes its paged KV pool),
// runs them in one SystemC elaboration — with speculation also the same requests without it, on
// devices (and links) of their own, for the speed-up —, then finalize() over the distinct step
// shapes simulated and the serving metrics (RunResult::serving).
#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// On one chip: simulate() hands serve workloads here.
RunResult simulate_serving(const Config& config, const Workload& workload);

// On a system of chips (tp, dp, disaggregation): simulate_system() hands serve workloads here.
RunResult simulate_serving_system(const Config& system, const Config& chip, const Workload& workload);

}  // namespace hwsim
