#pragma once
// Functional semantics: executes one instruction for a warp's active lanes with real values,
// updates the SIMT stack, and describes the memory access it made so timing code can cost it.
// Out-of-bounds or misaligned accesses throw UserError(workload) naming kernel, instruction,
// lane and address.
#include <cstdint>
#include <vector>

#include "models/gpu/warp/global_memory.h"
#include "models/gpu/warp/isa.h"
#include "models/gpu/warp/warp_state.h"

namespace hwsim::warp {

// An ALU instruction specialised for its opcode and type, decoded once per program: writes d[lane]
// for the lanes in `mask` from the sources' 32-lane arrays; `ok` turns false on an integer
// division by zero in an active lane.
using LaneFn = void (*)(std::uint64_t* d, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
                        std::uint32_t mask, bool& ok);

// Per instruction of `program`: its LaneFn, or null for instructions execute() runs otherwise.
std::vector<LaneFn> decode_lane_functions(const Program& program);

struct ExecContext {
  const Program* program = nullptr;
  GlobalMemory* memory = nullptr;
  std::uint8_t* shared = nullptr;   // this CTA's shared memory
  std::uint64_t shared_bytes = 0;
  std::uint32_t ntid = 0;           // threads per block
  std::uint64_t nctaid = 0;         // blocks in the grid
  std::uint32_t block_dim[3] = {0, 1, 1};  // %ntid.x/.y/.z (0: ntid, 1, 1)
  std::uint32_t grid_dim[3] = {0, 1, 1};   // %nctaid.x/.y/.z (0: nctaid, 1, 1)
  std::int64_t now = 0;             // cycle (for %clock)
  const LaneFn* lane_fns = nullptr; // decode_lane_functions(program), indexed by pc
};

struct Effects {
  enum Control : std::uint8_t { none, barrier, exited, branch } control = none;
  bool memory = false;
  Space space = Space::none;
  bool store = false, atomic = false;
  int bytes = 0;                    // per lane
  std::uint32_t mask = 0;           // lanes that accessed memory / executed (active, not predicated off)
  std::uint32_t active = 0;         // lanes active in the warp (its SIMT mask), predicated off or not
  std::uint64_t addr[32];
};

// Executes code[warp.pc()] and advances the warp. Returns what it did.
Effects execute(WarpState& warp, const Instr& in, const ExecContext& ctx);

// f16 / bf16 conversions used by the pair types and mma.
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);
float bf16_to_float(std::uint16_t h);
std::uint16_t float_to_bf16(float f);

}  // namespace hwsim::warp
