// SIMT reconvergence: nested divergent branches run every path, lanes rejoin at the immediate
// post-dominator, and SIMD efficiency drops with the number of paths.
#include <doctest/doctest.h>

#include "models/gpu/warp/kernel_figures.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: nested divergence reconverges with the right values") {
  const char* src = R"(
.kernel nest
.param buf out u32 = 32:zeros
.reg u32 lane, v, r
.reg u64 off, p64
.reg pred odd, big
    mov.u32 lane, %laneid
    mov.u32 v, 0
    and.u32 r, lane, 1
    setp.eq.u32 odd, r, 1
    @!odd bra EVEN
    add.u32 v, v, 10          // odd lanes
    setp.ge.u32 big, lane, 16
    @!big bra JOIN
    add.u32 v, v, 100         // odd and >= 16
    bra JOIN
EVEN:
    add.u32 v, v, 1
JOIN:
    add.u32 v, v, 1000        // every lane, after reconvergence
    mul.wide.u32 off, lane, 4
    add.u64 p64, out, off
    st.global.u32 [p64], v
)";
  Program p = parse_kernel(src, "nest.hwk");
  // the first branch reconverges at JOIN (instruction 11)
  CHECK(p.code[4].op == Op::bra);
  CHECK(p.code[4].reconverge == 11);
  auto r = test::run(p, 1, 32);
  auto out = test::values(*r, "out");
  for (int l = 0; l < 32; ++l) {
    double want = 1000 + ((l & 1) ? 10 + (l >= 16 ? 100 : 0) : 1);
    CHECK(out[std::size_t(l)] == want);
  }
  // the JOIN instruction ran once, with all 32 lanes
  CHECK(r->stats.pcs[11].issued == 1);
  CHECK(r->stats.pcs[11].lane_hist[32] == 1);
}

TEST_CASE("warp: divergence kernel runs one path after another") {
  // work long enough that each path's loop, not its branches, sets the time
  auto one = test::run_file("divergence", 1, 32, {{"paths", "1"}, {"work", "256"}});
  auto eight = test::run_file("divergence", 1, 32, {{"paths", "8"}, {"work", "256"}});
  double simd8 = double(eight->stats.thread_instructions) / (32.0 * double(eight->stats.warp_instructions));
  CHECK(simd8 < 0.2);
  CHECK(double(eight->stats.cycles) / double(one->stats.cycles) > 6.0);
}

// Nsight Compute counts a guarded instruction's predicated-off lanes as active (thread_inst_executed)
// and apart (thread_inst_executed_pred_on): SIMD efficiency is the first, pred_on_efficiency the
// second. A guard without a branch leaves every lane active; a divergent branch does not.
TEST_CASE("warp: predicated-off lanes stay active in SIMD efficiency and are counted apart") {
  const char* src = R"(
.kernel pred
.param buf out u32 = 32:zeros
.reg u32 lane, v, r
.reg u64 off, p64
.reg pred odd
    mov.u32 lane, %laneid
    mov.u32 v, 0
    and.u32 r, lane, 1
    setp.eq.u32 odd, r, 1
    @odd add.u32 v, v, 7
    mul.wide.u32 off, lane, 4
    add.u64 p64, out, off
    st.global.u32 [p64], v
)";
  auto r = test::run(parse_kernel(src, "pred.hwk"), 1, 32);
  auto out = test::values(*r, "out");
  for (int l = 0; l < 32; ++l) CHECK(out[std::size_t(l)] == ((l & 1) ? 7 : 0));
  CHECK(r->stats.pcs[4].active_lanes == 32);
  CHECK(r->stats.pcs[4].lanes == 16);
  CHECK(r->stats.active_thread_instructions == r->stats.thread_instructions + 16);
  CHECK(simd_efficiency(*r) == 1.0);
  CHECK(pred_on_efficiency(*r) < 1.0);
  CHECK(pred_on_efficiency(*r) == doctest::Approx(1.0 - 16.0 / (32.0 * double(r->stats.warp_instructions))));
  // a divergent branch: the paths' instructions issue with only their own lanes active
  auto eight = test::run_file("divergence", 1, 32, {{"paths", "8"}, {"work", "16"}});
  CHECK(simd_efficiency(*eight) < 0.3);
  CHECK(pred_on_efficiency(*eight) <= simd_efficiency(*eight));
}
