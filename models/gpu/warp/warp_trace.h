#pragma once
// Recording the timelines of traced warps for the Chrome trace, compactly: a stall of at least
// KernelStats::trace_stall_cycles is an event of its own (consecutive ones of one reason merged);
// the issues and short stalls between such stalls are one *run* event, with its instruction count
// and the stall it spent most cycles in. A classroom kernel's trace stays a few MB.
#include <cstdint>

#include "models/gpu/warp/kernel_stats.h"

namespace hwsim::warp {

// Adds [from, to) in state `why` (selected: issuing instruction `pc`) to traced warp `track`.
void trace_interval(KernelStats& s, int track, std::int64_t from, std::int64_t to, Stall why, int pc);
// Closes every open run (after the last cycle).
void trace_finish(KernelStats& s);

}  // namespace hwsim::warp
