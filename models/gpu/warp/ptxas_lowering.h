#pragma once
// What ptxas does to a PTX kernel that changes its time, modelled on the PTX itself (.hwk kernels
// are written as SASS is and are left alone):
//   - immediates: a register that `mov` sets to a constant and ALU instructions read is folded
//     into them (SASS takes an immediate operand), and the mov goes once nothing else reads it;
//   - expansions: PTX instructions that are instruction sequences in SASS (integer division and
//     remainder, IEEE f32 division, reciprocal and square root, f64 division) take as many issue
//     slots as their sequence and deliver their result after its dependent chain.
// The counts and chains are read from cuobjdump -sass of nvcc 13's code for sm_90
// (data/measurements/h200_lessons_sass.txt: reduce_interleaved_divergent's remainder is 17
// instructions) and are documented constants below, not fitted to any time.
#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

struct SassSequence {
  int instructions = 1;  // issue slots
  int chain = 0;         // cycles of its dependent chain beyond the pipe's own latency
};

// A PTX instruction's SASS sequence ({1, 0}: one SASS instruction).
SassSequence sass_sequence(const Instr& in);

// Folds immediates, drops the movs that become dead, sets Instr::sass_count and sass_latency.
// Branch targets are kept (a removed instruction's label moves to the next one); run before the
// list scheduler and the reconvergence analysis.
void lower_like_ptxas(Program& program);

}  // namespace hwsim::warp
