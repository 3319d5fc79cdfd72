#pragma once
// The host memory a run may take (`--max-memory`, default kDefaultMaxMemory). Whatever allocates
// in proportion to user input (a cache's tag store, a warp-model SM array, a buffer dump, a
// workload's op graph) first states its estimate here; an estimate over the limit is refused with
// its numbers before anything is allocated, instead of exhausting the machine or dying in
// std::bad_alloc. One process runs one simulation, so the budget is process-wide.
#include <cstdint>
#include <string>

namespace hwsim {

// Far above any shipped workload (a 512-token generate peaks under 1 GB), below a laptop's memory.
inline constexpr double kDefaultMaxMemory = 8.0 * (1ull << 30);

// Sets the limit in bytes (the CLI's --max-memory); must be positive and finite.
void set_memory_limit(double bytes);
double memory_limit();
// In one of `parts` processes running at once (a sweep's jobs): the limit divided among them, so
// together they stay within --max-memory (a refusal says so).
void share_memory_limit(int parts);

// Throws UserError(workload): "WHAT needs about N of host memory, more than the M that
// --max-memory allows" when `bytes` exceeds the limit. `what` names the structure and the input
// that sized it ("the warp model's L2 tag store (memory.l2.size = 1 PiB)").
void require_memory(double bytes, const std::string& what);

// What a process builds up over its run in many small pieces (the ops of its workload's graphs):
// each piece is charged as it is added, and the running total is checked as require_memory checks
// one estimate ("WHAT needs about N ..."). `what` names the pieces ("the workload's op graphs").
void charge_memory(double bytes, const char* what);
// Gives back `bytes` charge_memory charged for pieces since freed (at most what is charged).
void release_memory(double bytes);
// What charge_memory has charged so far, in bytes.
double memory_charged();
// Forgets the charges: for a harness that runs many inputs in one process (a fuzz target), each
// input a run of its own.
void reset_memory_charges();

}  // namespace hwsim
