#pragma once
// One run: a validated Config and a built Workload in, a finalized RunResult out. Builds the GPU
// core model the config names (gpu.core.model) through the registry.
#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// Runs one SystemC elaboration: call at most once per process (see sim/engine/isolated_run.h).
RunResult simulate(const Config& config, const Workload& workload);

}  // namespace hwsim
