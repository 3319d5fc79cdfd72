#pragma once
// One SM of the warp model: resident CTAs and warps, four sub-partitions each with a warp
// scheduler (GTO or LRR) issuing at most one instruction per cycle, a per-warp scoreboard, pipes
// with latency and initiation interval, the shared-memory pipe (bank conflicts replay), and the
// LSU in front of the memory system. Event driven: step(t) issues what can issue at cycle t and
// returns the next cycle at which anything can happen, so idle cycles are skipped, never ticked.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/gpu/warp/execute.h"
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
  };
  struct SubPartition {
    std::vector<WarpState*> warps;       // in age order
    std::array<std::int64_t, kPipes> pipe_free{};
    WarpState* greedy = nullptr;
    std::int64_t issue_free = 0;         // register-file read conflict: no issue before this cycle
    double rf_debt = 0;                  // accumulated fractional register-bank conflict cycles
    std::size_t rr = 0;
  };

  void issue(SubPartition& sp, WarpState& w, std::int64_t t, std::int64_t earliest_pipe);
  void refresh(WarpState& w);            // recompute the cached dependency-ready time
  void charge(WarpState& w, std::int64_t from, std::int64_t to, Stall why, int pc);
  void retire(SubPartition& sp, WarpState& w, std::int64_t t);
  void occupancy_change(std::int64_t t, int delta);

  int id_;
  const WarpParams& p_;
  const Program& prog_;
  ExecContext ctx_;
  MemorySystem& mem_;
  KernelStats& stats_;
  std::vector<std::uint64_t> param_values_;
  std::vector<Cta> ctas_;
  std::vector<SubPartition> sps_;
  std::vector<std::unique_ptr<WarpState>> pool_;     // warp storage, reused
  std::vector<std::int64_t> dep_ready_;              // per pool index
  std::vector<Stall> dep_reason_;
  double shared_free_ = 0;
  std::size_t rotate_ = 0;                           // sub-partition that goes first at the next step
  std::uint64_t next_age_ = 0;
  int resident_warps_ = 0;
  std::int64_t occ_t_ = 0;
  int traced_ = 0;
  std::vector<int> track_;                           // per pool index: trace track or -1
};

}  // namespace hwsim::warp
