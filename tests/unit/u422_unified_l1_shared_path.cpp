// The L1 and shared memory are one data path (Volta and later): a shared-memory access waits
// behind the line lookups of a global access issued before it on the same SM, one line per cycle
// (memory.l1.lines_per_cycle), and a global access waits behind shared wavefronts in turn.
#include <doctest/doctest.h>

#include <string>

#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

// The end of both kernels: out[lane] = cycles from c0 to here (the value just loaded used first).
const std::string kStamp = R"(    mov.u64 c1, %clock
    sub.u64 c1, c1, c0
    mul.wide.u32 off, %tid, 8
    add.u64 p, out, off
    st.global.u64 [p], c1
    exit
)";

// One warp: a global load of 32 lines (each lane its own 128-B line), then a conflict-free shared
// load whose value is used at once; out[lane] = cycles from before the global load to the use.
const std::string kMixed = R"(.kernel mixed
.param buf g f32 = 1024:zeros
.param buf out u64 = 32:zeros
.shared f32 s[32]
.reg u32 a
.reg u64 off, p, c0, c1
.reg f32 x, y
    mov.u64 c0, %clock
    mul.wide.u32 off, %tid, 128
    add.u64 p, g, off
    ld.global.f32 x, [p]
    shl.u32 a, %tid, 2
    add.u32 a, a, s
    ld.shared.f32 y, [a]
    add.f32 y, y, 1.0
)" + kStamp;

// One warp: a 32-way conflicting shared load (every lane on bank 0: 32 wavefronts), then a global
// load of one line, found in L2, whose value is used at once; out[lane] as above.
const std::string kConflictThenGlobal = R"(.kernel conflict_then_global
.param buf g f32 = 1024:zeros
.param buf out u64 = 32:zeros
.shared f32 s[1024]
.reg u32 a
.reg u64 off, p, c0, c1
.reg f32 x, y
    mov.u64 c0, %clock
    shl.u32 a, %tid, 7
    add.u32 a, a, s
    ld.shared.f32 y, [a]
    mul.wide.u32 off, %tid, 4
    add.u64 p, g, off
    ld.global.f32 x, [p]
    add.f32 x, x, 1.0
)" + kStamp;

}  // namespace

TEST_CASE("warp: a global access queues behind shared-memory wavefronts") {
  WarpParams p = test::h100();
  LaunchOptions o;
  o.args.grid = 1;
  o.args.block = 32;
  o.warm_l2 = true;  // the line is in L2: its latency is memory.l2.latency from its lookup
  auto r = simulate_kernel(p, parse_kernel(kConflictThenGlobal, "conflict_then_global.hwk"), o);
  const double waited = test::values(*r, "out")[0];
  const int wavefronts = 32;
  CHECK(waited >= wavefronts + p.l2_latency);
  CHECK(waited <= wavefronts + p.l2_latency + 16);
}

TEST_CASE("warp: shared-memory wavefronts queue behind the L1's line lookups") {
  WarpParams p = test::h100();
  auto r = test::run(parse_kernel(kMixed, "mixed.hwk"), 1, 32);
  const double waited = test::values(*r, "out")[0];
  const int lines = 32;
  // the shared load starts once the 32 lines have passed the tag stage, then takes its latency
  CHECK(waited >= lines / double(p.l1_lines_per_cycle) + p.shared_latency);
  // and not much later: nothing else is in the way
  CHECK(waited <= lines / double(p.l1_lines_per_cycle) + p.shared_latency + 16);
}
