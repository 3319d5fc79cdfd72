#pragma once
// PTX order is not SASS order: ptxas moves loads up so that their latency overlaps independent
// work. schedule_basic_blocks reorders each basic block of a PTX kernel as a list scheduler does:
// every instruction after the ones it depends on (registers read after written, written after
// read or written; memory accesses after earlier stores and atomics to a space they may share;
// barriers, fences and the block's branch in place), the ready instruction with the longest
// latency-weighted path to the block's end first, ties in PTX order. Block boundaries and so
// branch targets do not move. .hwk kernels are hand-scheduled and are not reordered.
#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

// Nominal latencies the scheduler weighs paths with (cycles; ptxas's own model is not public):
// what matters is their order, a global load far above a shared load above arithmetic.
struct ScheduleLatencies {
  int global_load = 400;   // an L2/HBM round trip
  int shared_load = 30;    // shared memory and shuffles
  int sfu = 20;            // ex2, rcp, sqrt, division
  int alu = 4;             // the FP32 and integer pipes
};

void schedule_basic_blocks(Program& program, const ScheduleLatencies& latencies = {});

}  // namespace hwsim::warp
