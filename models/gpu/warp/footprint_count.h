#pragma once
// The lines each block of a --sample-sms subset touches (a Footprint), counted by running the
// blocks functionally, one after another, without timing: MemorySystem::weigh_own_lines weighs
// the subset's L2 pressure by it. Which lines a block touches follows from its addresses alone,
// and the count is a set (a line of one block, or of several), so any order of the blocks and
// warps gives the count the timed run would, for every kernel whose addresses do not depend on a
// race between blocks; a functional pass costs a small part of a timed one.
#include <cstdint>
#include <functional>
#include <vector>

#include "models/gpu/warp/execute.h"
#include "models/gpu/warp/memory_system.h"

namespace hwsim::warp {

struct FootprintLaunch {
  ExecContext ctx;                                   // program, memory, ntid, nctaid, lane functions
  const std::vector<std::uint64_t>* values = nullptr;  // the parameters' values
  int line_bytes = 128, sector_bytes = 32;
  // A warp past this many instructions, or the blocks past max_instructions in all, would take
  // the timed run past its horizon (a warp issues at most one instruction per cycle, an SM at
  // most one per sub-partition): the timed run must report it.
  std::uint64_t max_warp_instructions = 0;
  std::uint64_t max_instructions = 0;
};

// Runs blocks block_id(0 .. blocks-1) and notes their global accesses in `f`. Returns false (`f` incomplete) when
// a block does what only the timed run reports as it would: an error (a bad address, a barrier
// in divergent code), a barrier deadlock or a run past the horizon. The caller then counts with
// a timed run. The buffers keep what the blocks wrote (GlobalMemory::discard_writes drops it).
bool count_footprint(const FootprintLaunch& launch, std::uint64_t blocks,
                     const std::function<std::uint64_t(std::uint64_t)>& block_id, Footprint& f);

}  // namespace hwsim::warp
