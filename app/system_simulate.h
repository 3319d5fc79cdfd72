#pragma once
// One run on a system of devices (models/cluster): a validated system config, the chip config its
// devices share, and a built Workload in; a finalized RunResult with RunResult::system out. Builds
// the topology and its links, one representative device per pipeline stage, checks that the
// layout fits (ranks ≤ devices, each stage's footprint ≤ its device's memory), runs every step in
// one SystemC elaboration (SystemRunner) and derives every metric once. Knows no kind of hardware.
#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// Runs one SystemC elaboration: at most once per process.
RunResult simulate_system(const Config& system, const Config& chip, const Workload& workload);

}  // namespace hwsim
