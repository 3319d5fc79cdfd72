// A block's slot frees only when the L2 has acknowledged its stores (a round trip, memory.l2.latency,
// after the last one left the SM), and the kernel ends when its last block has. A one-store kernel
// of two waves (every slot used twice) lengthens by two L2 round trips when the L2 latency rises
// by one round trip; a kernel without stores does not change.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

const char* kStore = R"(.kernel one_store
.param buf out f32 = threads:zeros
.reg u64 off, p
.reg f32 v
    mov.f32 v, 1.0
    mul.wide.u32 off, %tid, 4
    add.u64 p, out, off
    st.global.f32 [p], v
    exit
)";

const char* kNoStore = R"(.kernel no_store
.reg f32 v
    mov.f32 v, 1.0
    exit
)";

std::int64_t cycles(const char* source, int l2_latency, std::int64_t grid) {
  WarpParams p = test::h100();
  p.l2_latency = l2_latency;
  p.cta_dispatch_cycles = 0;  // the dispatcher's rate out of the way: only the slots' turnover counts
  LaunchOptions o;
  o.args.grid = grid;
  o.args.block = 1024;  // 2 blocks per SM
  o.sample_sms = 1;
  return simulate_kernel(p, parse_kernel(source, "k.hwk"), o)->stats.cycles;
}

}  // namespace

TEST_CASE("warp: a block's slot frees when its stores are acknowledged") {
  const std::int64_t sms = test::h100().chip.sm_count;
  const int base = test::h100().l2_latency;
  // two waves: each block waits for its acknowledgement before its slot takes the next one
  CHECK(cycles(kStore, base + 100, sms * 4) - cycles(kStore, base, sms * 4) == 2 * 100);
  // one wave: the kernel still ends with its last acknowledgement
  CHECK(cycles(kStore, base + 100, sms * 2) - cycles(kStore, base, sms * 2) == 100);
  CHECK(cycles(kNoStore, base + 100, sms * 4) == cycles(kNoStore, base, sms * 4));
}
