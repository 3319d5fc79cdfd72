// The L2 performs atomics on one line one after another, gpu.warp.atomic_line cycles each, and a
// kernel ends only when its last atomic is performed. Eight warps of one block add into one
// address (lane 0 each): their eight atomics queue on the line, so raising atomic_line by 100
// cycles lengthens the kernel by 8 x 100. The same eight 128 B apart (eight lines) overlap: +100.
// One warp whose 32 lanes add into one address: 32 operations on the line, +3200.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

const char* kSource = R"(
.kernel atom_line
.param u32 stride = 0
.param u32 lanes = 1
.param buf out f32 = 256:zeros
.reg u32 w, lane
.reg u64 off, p
.reg f32 v, old
.reg pred q
    and.u32 lane, %tid, 31
    setp.ge.u32 q, lane, lanes
    @q exit
    shr.u32 w, %tid, 5
    mul.lo.u32 w, w, stride
    mul.wide.u32 off, w, 4
    add.u64 p, out, off
    mov.f32 v, 1.0
    atom.global.add.f32 old, [p], v
)";

struct Result {
  std::int64_t cycles;
  double out0;
};

Result run(double atomic_line, std::int64_t block, int stride, int lanes) {
  WarpParams p = test::h100();
  p.atomic_line_cycles = atomic_line;
  LaunchOptions o;
  o.args.grid = 1;
  o.args.block = block;
  o.args.args = {{"stride", std::to_string(stride)}, {"lanes", std::to_string(lanes)}};
  auto r = simulate_kernel(p, parse_kernel(kSource, "atom_line.hwk"), o);
  return {r->stats.cycles, test::values(*r, "out")[0]};
}

}  // namespace

TEST_CASE("warp: atomics on one L2 line are performed one after another") {
  // eight warps, lane 0 each, one address: 8 operations in a row on the line
  auto a = run(100, 256, 0, 1), b = run(200, 256, 0, 1);
  CHECK(a.out0 == 8.0);
  CHECK(b.cycles - a.cycles == doctest::Approx(8 * 100).epsilon(0.01));
  // the same eight, 32 floats (128 B) apart: eight lines, performed side by side
  auto c = run(100, 256, 32, 1), d = run(200, 256, 32, 1);
  CHECK(c.out0 == 1.0);
  CHECK(d.cycles - c.cycles == doctest::Approx(100).epsilon(0.05));
  // one warp, all 32 lanes into one address: 32 operations on the line
  auto e = run(100, 32, 0, 32), f = run(200, 32, 0, 32);
  CHECK(e.out0 == 32.0);
  CHECK(f.cycles - e.cycles == doctest::Approx(32 * 100).epsilon(0.01));
}

TEST_CASE("warp: without atomic_line the kernel ends when its last warp exits") {
  auto a = run(0, 256, 0, 1), b = run(100, 256, 0, 1);
  CHECK(b.cycles > a.cycles + 8 * 100);
}
