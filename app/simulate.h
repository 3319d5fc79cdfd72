#pragma once
// One run: a validated Config and a built Workload in, a finalized RunResult out. The generic
// runner: builds the device the chip's `kind` names (registry), checks the workload's footprint
// against the device's main memory, chooses the framework pass (the workload's, else the device's
// default), runs every step in one SystemC elaboration, and derives every metric once (finalize,
// then the language-model metrics). Knows no kind of hardware.
#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// Runs one SystemC elaboration: call at most once per process (see sim/engine/isolated_run.h).
RunResult simulate(const Config& config, const Workload& workload);

}  // namespace hwsim
