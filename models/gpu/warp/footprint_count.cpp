#include "models/gpu/warp/footprint_count.h"

#include "models/gpu/warp/coalescer.h"
#include "sim/error.h"

namespace hwsim::warp {

namespace {

// Instructions a warp runs before the next warp of its block takes a turn: a warp that spins on
// a flag another warp of the block sets sees it within a turn, not at the horizon.
constexpr int kTurn = 64;

struct Pass {
  const FootprintLaunch& launch;
  Footprint& footprint;
  std::vector<WarpState> warps;        // reused from block to block
  std::vector<std::uint64_t> issued;   // per warp of the block
  std::vector<std::uint8_t> shared;
  std::uint64_t total = 0;

  // One warp's turn: up to kTurn instructions, fewer at a barrier or its exit. False past a limit.
  bool turn(WarpState& w, std::uint64_t& count, const ExecContext& ctx) {
    const FootprintLaunch& l = launch;
    for (int i = 0; i < kTurn && !w.done && !w.at_barrier; ++i) {
      if (++count > l.max_warp_instructions || ++total > l.max_instructions) return false;
      const Effects fx = execute(w, l.ctx.program->code[std::size_t(w.pc())], ctx);
      if (fx.memory && fx.mask && fx.space == Space::global)  // as SmCore::time_results tells them apart
        footprint.note(coalesce(fx.addr, fx.mask, fx.bytes, l.line_bytes, l.sector_bytes), w.cta_id);
      if (fx.control == Effects::barrier) w.at_barrier = true;
    }
    return true;
  }

  // Block `cta` to its end: its warps take turns; all of them at a barrier are released. False
  // when it cannot end as the timed run would let it (a limit, a deadlock at a barrier).
  bool block(std::uint64_t cta) {
    const Program& prog = *launch.ctx.program;
    const int threads = int(launch.ctx.ntid);
    const std::size_t n = std::size_t((threads + 31) / 32);
    warps.resize(n);
    issued.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) warps[i].start(prog, *launch.values, cta, int(i), threads);
    shared.assign(prog.shared_bytes, 0);
    ExecContext ctx = launch.ctx;
    ctx.shared = shared.data();
    ctx.shared_bytes = shared.size();
    for (;;) {
      std::size_t done = 0, waiting = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (!turn(warps[i], issued[i], ctx)) return false;
        done += warps[i].done;
        waiting += warps[i].at_barrier;
      }
      if (done == n) return true;
      if (done + waiting < n) continue;
      if (done > 0) return false;  // warps wait at a barrier others exited without reaching
      for (auto& w : warps) w.at_barrier = false;
    }
  }
};

}  // namespace

bool count_footprint(const FootprintLaunch& launch, std::uint64_t blocks,
                     const std::function<std::uint64_t(std::uint64_t)>& block_id, Footprint& f) {
  Pass pass{launch, f, {}, {}, {}, 0};
  try {
    for (std::uint64_t k = 0; k < blocks; ++k)
      if (!pass.block(block_id(k))) return false;
  } catch (const UserError&) {  // the timed run reports it, at the block and time it meets it
    return false;
  }
  return true;
}

}  // namespace hwsim::warp
