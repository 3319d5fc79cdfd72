#pragma once
// A `serve` run on one device (docs/serving.md): builds the device, sizes the paged KV pool, runs
// the serving runner in one SystemC elaboration, then finalize() over the distinct step shapes it
// simulated and the serving metrics (RunResult::serving). Called by simulate() for a serve workload.
#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

RunResult simulate_serving(const Config& config, const Workload& workload);

}  // namespace hwsim
