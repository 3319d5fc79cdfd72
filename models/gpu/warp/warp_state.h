#pragma once
// The architectural state of one warp: registers of its 32 lanes, its SIMT reconvergence stack,
// and the scoreboard (cycle each register's pending write lands). Timing code reads ready times;
// the functional code (execute.h) reads and writes values.
#include <cstdint>
#include <vector>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

// Why a warp could not issue (Nsight Compute's stall reason names).
enum class Stall : std::uint8_t {
  selected, long_scoreboard, short_scoreboard, wait, barrier, mio_throttle, lg_throttle,
  math_pipe_throttle, branch_resolving, not_selected, no_instruction, count
};
const char* stall_name(Stall s);
const char* stall_explanation(Stall s);

// One entry of the SIMT stack: run `mask` from `pc` until reaching `rpc` (the immediate
// post-dominator of the branch that pushed it), then pop.
struct SimtEntry {
  int pc = 0;
  int rpc = -1;
  std::uint32_t mask = 0;
};

struct WarpState {
  int sm_slot = 0;             // index among the SM's warps
  int cta_slot = 0;            // the SM's CTA slot it belongs to
  int warp_in_cta = 0;
  std::uint64_t cta_id = 0;    // block index in the grid
  std::uint64_t age = 0;       // launch order, for "oldest"
  std::uint32_t live = 0;      // lanes that exist and have not exited
  std::vector<SimtEntry> stack;
  std::vector<std::uint64_t> regs;       // [reg × 32 + lane]
  std::vector<std::uint8_t> local;       // each lane's .local frame: [lane × Program::local_bytes + offset]
  std::vector<std::int64_t> reg_ready;   // scoreboard: cycle the register's value is available
  std::vector<Stall> reg_producer;       // what the pending write waits on
  std::int64_t ready_at = 0;             // earliest next issue (branch delay, barrier release)
  Stall ready_reason = Stall::wait;
  std::int64_t last_issue = -1;
  bool at_barrier = false, done = false, in_use = false;
  std::int64_t dep_ready = 0;            // cached: cycle the next instruction's operands are ready
  Stall dep_reason = Stall::wait;
  std::int64_t waiting_since = 0;        // first cycle not yet charged to a stall reason
  int track = -1;                        // trace track (KernelStats::tracks), -1 = not traced
  std::uint8_t issue_class = 0;          // issue_queues.h: the class it is queued in
  std::uint8_t issue_slot = 0;           // its slot in its sub-partition's queues
  bool issue_ready = false;              // in its class's ready list (operands ready)
  // Asynchronous work in flight (cp.async, wgmma.mma_async): the cycle by which what was issued
  // since the last commit completes, and per committed group, oldest first, the cycle it completes.
  // A wait_group N holds the warp until all but the N newest groups are complete.
  std::int64_t cp_open = 0, wg_open = 0;
  std::vector<std::int64_t> cp_groups, wg_groups;

  // The functional state of warp `warp_in_cta` of block `cta` (of `threads` threads) at its first
  // instruction: its lanes live, registers zero but the kernel's parameters (`param_values`, in
  // program.params order) and shared arrays' offsets; not at a barrier, not done.
  void start(const Program& program, const std::vector<std::uint64_t>& param_values, std::uint64_t cta, int warp,
             int threads);
  int pc() const { return stack.back().pc; }
  std::uint32_t active() const { return stack.back().mask; }
  std::uint64_t& reg(int r, int lane) { return regs[std::size_t(r) * 32 + std::size_t(lane)]; }
  // Leaves reconverged entries: pops while the top has reached its reconvergence point.
  void reconverge() {
    while (stack.size() > 1 && (stack.back().pc == stack.back().rpc || stack.back().mask == 0)) stack.pop_back();
  }
};

}  // namespace hwsim::warp
