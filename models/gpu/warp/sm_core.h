#pragma once
// One SM of the warp model: resident CTAs and warps, four sub-partitions each with a warp
// scheduler (GTO or LRR) issuing at most one instruction per cycle, a per-warp scoreboard, pipes
// with latency and initiation interval, the shared-memory pipe (bank conflicts replay), and the
// LSU in front of the memory system. Event driven: step(t) issues what can issue at cycle t and
// returns the next cycle at which anything can happen, so idle cycles are skipped, never ticked.
// Both schedulers look only at warps that can issue (issue_queues.h): the cost per issued
// instruction does not grow with the resident warps.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/gpu/warp/execute.h"
#include "models/gpu/warp/issue_queues.h"
#include "models/gpu/warp/kernel_stats.h"
#include "models/gpu/warp/memory_system.h"
#include "models/gpu/warp/warp_params.h"

namespace hwsim::warp {

class SmCore {
 public:
  static constexpr std::int64_t kNever = INT64_MAX / 4;

  SmCore(int id, const WarpParams& p, const Program& program, ExecContext ctx, MemorySystem& memory,
         KernelStats& stats, int cta_slots, const std::vector<std::uint64_t>& param_values);
  // Places block `cta_id` into a free slot; its warps may issue from cycle `t`.
  void launch(std::uint64_t cta_id, std::int64_t t);
  bool has_free_slot() const;
  // Issues what can issue at cycle t; returns the next interesting cycle (kNever when empty).
  std::int64_t step(std::int64_t t);
  // Called with (sm, cycle) each time a CTA retires.
  std::function<void(int, std::int64_t)> on_cta_done;
  int resident_warps() const { return resident_warps_; }
  void close_occupancy(std::int64_t t);

 private:
  struct Cta {
    bool used = false;
    std::uint64_t id = 0;
    std::vector<std::uint8_t> shared;
    int warps = 0, done = 0, arrived = 0;
    int barrier_pc = -1;
    // the cycle the L2 has acknowledged all its stores: its slot frees no earlier (the SM
    // keeps a warp until its stores are acknowledged, as GPGPU-Sim's stores_done() does)
    std::int64_t stores_acked = 0;
  };
  struct SubPartition {
    std::vector<WarpState*> warps;       // in age order
    IssueQueues queues;                  // the warps waiting to issue, by issue class
    // the cycle step_sub_partition last returned when none could issue, valid until the
    // sub-partition issues, a warp joins its queues or the SM's MIO or LSU queue moves (`stale`)
    std::int64_t next = 0;
    bool stale = true;
    std::array<std::int64_t, kPipes> pipe_free{};
    WarpState* greedy = nullptr;
    std::int64_t issue_free = 0;         // register-file read conflict: no issue before this cycle
    double tensor_queue = 0;             // the cycle the tensor pipe has done the MMAs given to it
    double rf_debt = 0;                  // accumulated fractional register-bank conflict cycles
    std::size_t rr = 0;
  };

  // One sub-partition at cycle t: issues the warp its scheduler picks (GTO: the warp that issued
  // last if it can, else the oldest that can; LRR: the first that can in age order from warps[rr]
  // on, wrapping around) and returns t + 1, or, when none can issue, the earliest cycle one can.
  std::int64_t step_sub_partition(SubPartition& sp, std::int64_t t);
  // The earliest cycle a warp of the sub-partition can issue (its operands, pipe and queue ready).
  std::int64_t next_issue(const SubPartition& sp) const;
  // Cycle from which an instruction of issue class `cls` finds its pipe and its queue free.
  std::int64_t class_free(const SubPartition& sp, int cls) const;
  void issue(SubPartition& sp, WarpState& w, std::int64_t t, std::int64_t earliest_pipe);
  // The timing of an issued instruction's results: a shared or global access through the SM's
  // data path and memory system, a shuffle's or an ALU op's latency. Sets its destinations'
  // ready cycles and, for a store, when the block's stores are acknowledged.
  void time_results(WarpState& w, Cta& cta, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t);
  void shared_access(WarpState& w, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t);
  void global_access(WarpState& w, Cta& cta, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t);
  void set_ready(WarpState& w, const Instr& in, std::int64_t ready, Stall why);  // the scoreboard
  // The matrix and asynchronous instructions (sm_core_tensor.cpp): mma.sync holds the tensor pipe
  // for its share of the pipe's rate; wgmma.mma_async queues on it and completes asynchronously;
  // cp.async's copies complete asynchronously; the commits and waits group and await them.
  void time_tensor(SubPartition& sp, WarpState& w, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t);
  double tensor_cycles(const Instr& in) const;
  // Counts an issued instruction of `mask`'s lanes at `pc` (kernel and per-instruction counts).
  PcStats& count_issue(int pc, std::uint32_t active, std::uint32_t mask);  // active: the SIMT mask; mask: not predicated off
  // Recomputes the warp's dependency-ready time for its next instruction and queues it for issue.
  void refresh(WarpState& w);
  void charge(WarpState& w, std::int64_t from, std::int64_t to, Stall why, int pc);
  void retire(SubPartition& sp, WarpState& w, std::int64_t t);
  void occupancy_change(std::int64_t t, int delta);

  int id_;
  const WarpParams& p_;
  const Program& prog_;
  // Decoded once per instruction: its issue class, the stall a full pipe or queue charges, whether
  // it reads three distinct registers (a register-bank conflict), and the registers its scoreboard
  // check reads (sources, destinations, guard, in that order, without repeats) at
  // dep_regs_[dep_first .. next instruction's dep_first).
  struct Decoded {
    std::uint8_t cls = 0;
    Stall throttle = Stall::math_pipe_throttle;
    bool three_regs = false;
    std::uint32_t dep_first = 0;
  };
  std::vector<Decoded> decoded_;
  std::vector<std::uint16_t> dep_regs_;
  ExecContext ctx_;
  MemorySystem& mem_;
  KernelStats& stats_;
  std::vector<std::uint64_t> param_values_;
  std::vector<Cta> ctas_;
  std::vector<SubPartition> sps_;
  std::vector<std::unique_ptr<WarpState>> pool_;     // warp storage, reused
  std::vector<std::int64_t> dep_ready_;              // per pool index
  std::vector<Stall> dep_reason_;
  double shared_free_ = 0;                           // the MIO: the cycle it takes the next shared wavefront or shuffle
  std::size_t rotate_ = 0;                           // sub-partition that goes first at the next step
  std::uint64_t next_age_ = 0;
  int resident_warps_ = 0;
  std::int64_t occ_t_ = 0;
  int traced_ = 0;
};

}  // namespace hwsim::warp
