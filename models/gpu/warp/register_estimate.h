#pragma once
// The registers a PTX kernel's thread needs once ptxas has allocated them: PTX declares virtual
// registers without limit (%r<290>), so their count says nothing of occupancy. The estimate is the
// largest number of 32-bit registers live at once (backward liveness over the control-flow graph;
// a 64-bit register counts two, predicates none), capped by .maxnreg.
#include <cstdint>
#include <vector>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

int estimate_live_registers(const Program& program);

// Per instruction, the registers live after it (a bit per register, 64 to a word).
std::vector<std::vector<std::uint64_t>> live_after(const Program& program);

}  // namespace hwsim::warp
