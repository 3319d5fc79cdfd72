#pragma once
// Closed-form helpers shared by the lowerings (pure): how steps are spread over the TensorCores,
// and the time a phase would take alone on the chip (the lowering's objective when it chooses
// blocks; the machine simulates the same pipeline with contention and events).
#include <cstdint>
#include <vector>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"

namespace hwsim {

// `units` independent units of work (GEMM blocks, vector chunks) of `steps_per_unit` steps each,
// dealt to `cores` TensorCores as evenly as possible (the first cores take one more): steps per core.
std::vector<std::int64_t> split_over_cores(std::int64_t units, int cores, std::int64_t steps_per_unit);

// Seconds a phase takes alone: the busiest core's steps at max(compute, its HBM share) each
// (double buffering overlaps them), plus the exposed first load (with the HBM latency) and last
// store.
double estimate_phase(const Phase& phase, const SystolicChip& chip);

}  // namespace hwsim
