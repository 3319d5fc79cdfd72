// A line's atomic queue holds gpu.warp.atomic_queue operations; beyond that the SM holds a warp's
// atomic back until the line has room, and the warp issues nothing meanwhile. Eight warps of one
// block add into one address (lane 0 each), then read %clock. With atomic_line 100 cycles and a
// queue of 2, the first three are taken at once and the k-th (k = 3..7) waits (k - 2) x 100
// cycles: the last clock reads 500 cycles after the first. With unbounded queues, all at once.
#include <doctest/doctest.h>

#include <algorithm>

#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

const char* kSource = R"(
.kernel atom_queue
.param buf out f32 = 8:zeros
.param buf clk u32 = 8:zeros
.reg u32 w, lane, c
.reg u64 off, p
.reg f32 v, old
.reg pred q
    and.u32 lane, %tid, 31
    setp.ne.u32 q, lane, 0
    @q exit
    mov.f32 v, 1.0
    atom.global.add.f32 old, [out], v
    mov.u32 c, %clock
    shr.u32 w, %tid, 5
    mul.wide.u32 off, w, 4
    add.u64 p, clk, off
    st.global.u32 [p], c
)";

// the spread of the eight warps' clocks after their atomics
double clock_spread(double queue) {
  WarpParams p = test::h100();
  p.atomic_line_cycles = 100;
  p.atomic_queue = queue;
  LaunchOptions o;
  o.args.grid = 1;
  o.args.block = 256;
  auto r = simulate_kernel(p, parse_kernel(kSource, "atom_queue.hwk"), o);
  CHECK(test::values(*r, "out")[0] == 8.0);
  auto clk = test::values(*r, "clk");
  return *std::max_element(clk.begin(), clk.end()) - *std::min_element(clk.begin(), clk.end());
}

}  // namespace

TEST_CASE("warp: a full line queue holds the issuing warps back") {
  const double skew = 12;  // the eight warps issue their atomics a few cycles apart
  CHECK(clock_spread(0) < skew);
  CHECK(clock_spread(2) == doctest::Approx(5 * 100).epsilon(skew / 500));
  CHECK(clock_spread(6) == doctest::Approx(1 * 100).epsilon(skew / 100));
}
