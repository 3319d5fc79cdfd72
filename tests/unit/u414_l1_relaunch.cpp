// ld.global.cg is cached in L2 only, and the latency records' relaunch replay (the first chase
// launch as L2-only loads: a new launch starts with an invalidated L1) leaves the timed launch's
// first pass over a 128 KiB footprint missing the L1: microbench.cu measures 48.4 cycles per load
// there against 38.9 for an L1-resident footprint.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {
double cycles_per_load(std::uint64_t kb, std::uint32_t prior, std::uint32_t warm, std::uint32_t steps) {
  auto prog = load_kernel("workloads/kernels/pointer_chase_relaunch.hwk");
  auto r = test::run(prog, 1, 1,
                     {{"next", std::to_string(kb * 1024 / 4) + ":chase:7"}, {"steps", std::to_string(steps)},
                      {"prior", std::to_string(prior)}, {"warm", std::to_string(warm)}});
  return test::values(*r, "cyc")[0] / steps;
}
}  // namespace

TEST_CASE("warp: ld.global.cg skips the L1, so a relaunched 128 KiB chase misses it once") {
  const std::uint32_t steps = 20000;
  double l1_warm = cycles_per_load(128, 0, steps + 256, steps);   // all 1024 slots in L1 before timing
  double relaunch = cycles_per_load(128, steps + 256, 256, steps);  // 768 of 1024 slots miss L1 once
  double l2_only = cycles_per_load(128, steps + 256, 0, 1024);     // first pass: every load misses L1
  CHECK(l1_warm == doctest::Approx(38.9).epsilon(0.05));
  CHECK(relaunch > l1_warm + 6);
  CHECK(relaunch == doctest::Approx(48.4).epsilon(0.08));
  CHECK(l2_only > 200);  // L2 hits (282 cycles measured at 512 KiB-8 MiB)
}
