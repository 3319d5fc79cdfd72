// Timing of the matrix and asynchronous instructions (sm_core.h): the tensor pipe's occupancy per
// MMA from the chip's rate, and the cp.async / wgmma groups a warp waits for.
#include <algorithm>
#include <cmath>

#include "models/gpu/warp/coalescer.h"
#include "models/gpu/warp/sm_core.h"

namespace hwsim::warp {
namespace {

// The cycle by which all but the newest `keep` groups complete; they leave the list.
std::int64_t retire_groups(std::vector<std::int64_t>& groups, std::size_t keep, std::int64_t t) {
  std::int64_t until = t;
  while (groups.size() > keep) {
    until = std::max(until, groups.front());
    groups.erase(groups.begin());
  }
  return until;
}

void hold(WarpState& w, std::int64_t until, Stall why) {
  if (until > w.ready_at) w.ready_at = until, w.ready_reason = why;
}

}  // namespace

double SmCore::tensor_cycles(const Instr& in) const {
  const double share = in.op == Op::wgmma ? p_.wgmma_share : p_.mma_sync_share;
  return double(p_.interval[std::size_t(Pipe::tensor)]) * in.mma.warp_fmas() / WarpParams::kTensorIntervalFmas *
         p_.tensor_dtype_factor[std::size_t(in.mma.a)] / share;
}

void SmCore::time_tensor(SubPartition& sp, WarpState& w, const Instr& in, const Effects& fx, PcStats& ps, std::int64_t t) {
  const std::size_t tensor = std::size_t(Pipe::tensor);
  switch (in.op) {
    case Op::mma: case Op::wgmma: {
      // the pipe takes MMAs one after another, each for its cycles (fractions carried over)
      const double start = std::max(double(t), sp.tensor_queue);
      sp.tensor_queue = start + tensor_cycles(in);
      const std::int64_t done = std::int64_t(std::ceil(sp.tensor_queue)) + p_.latency[tensor] - p_.interval[tensor];
      if (in.op == Op::mma) {  // synchronous: the pipe is busy, D is ready when done
        sp.pipe_free[tensor] = std::max(sp.pipe_free[tensor], std::int64_t(std::floor(sp.tensor_queue)));
        set_ready(w, in, done, Stall::math_pipe_throttle);
      } else {  // asynchronous: the warp goes on; wgmma.wait_group waits for it
        sp.pipe_free[tensor] = t + 1;
        w.wg_open = std::max(w.wg_open, done);
      }
      break;
    }
    case Op::cp_async: {
      std::int64_t ready = t;
      if (fx.mask) {
        Coalesced c = coalesce(fx.addr, fx.mask, fx.bytes, p_.line_bytes, p_.sector_bytes);
        ++ps.global_requests;
        ps.sectors += std::uint64_t(c.sectors());
        ps.lines += std::uint64_t(c.count);
        mem_.note_footprint(c, w.cta_id);
        ready = mem_.load(id_, t, c, in.l2_only);
        shared_free_ = std::max(shared_free_, mem_.tag_free(id_));
      }
      w.cp_open = std::max(w.cp_open, ready + p_.shared_latency);  // then written into shared memory
      break;
    }
    case Op::cp_commit:
      w.cp_groups.push_back(std::max(w.cp_open, t));
      w.cp_open = 0;
      break;
    case Op::cp_wait:  // wait_group 0 and wait_all also wait for copies not committed yet
      hold(w, std::max(retire_groups(w.cp_groups, in.wait_groups, t), in.wait_groups == 0 ? w.cp_open : t),
           Stall::long_scoreboard);
      break;
    case Op::wgmma_commit:
      w.wg_groups.push_back(std::max(w.wg_open, t));
      w.wg_open = 0;
      break;
    case Op::wgmma_wait:
      hold(w, retire_groups(w.wg_groups, in.wait_groups, t), Stall::math_pipe_throttle);
      break;
    default:
      break;
  }
}

}  // namespace hwsim::warp
