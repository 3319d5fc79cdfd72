// A freed CTA slot takes its next block after gpu.warp.cta_launch plus gpu.warp.cta_launch_per_warp
// per warp of the block; the first blocks start with the launch. An empty kernel of two waves
// (every slot used twice) lengthens by warps x per_warp when per_warp rises; one wave not at all.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

std::int64_t cycles(double per_warp, std::int64_t grid, std::int64_t block) {
  WarpParams p = test::h100();
  p.cta_launch_per_warp = per_warp;
  p.cta_dispatch_cycles = 0;  // the dispatcher's rate out of the way: only the slot turnover counts
  LaunchOptions o;
  o.args.grid = grid;
  o.args.block = block;
  return simulate_kernel(p, parse_kernel(".kernel empty\n    exit\n", "empty.hwk"), o)->stats.cycles;
}

}  // namespace

TEST_CASE("warp: a CTA slot's turnover grows with the warps of the block") {
  const std::int64_t sms = test::h100().chip.sm_count;
  // 1024 threads: 32 warps, 2 blocks per SM; two waves
  CHECK(cycles(10, sms * 4, 1024) - cycles(0, sms * 4, 1024) == 32 * 10);
  // 256 threads: 8 warps, 8 blocks per SM; two waves
  CHECK(cycles(10, sms * 16, 256) - cycles(0, sms * 16, 256) == 8 * 10);
  // one wave: no slot is reused
  CHECK(cycles(10, sms * 2, 1024) == cycles(0, sms * 2, 1024));
}
