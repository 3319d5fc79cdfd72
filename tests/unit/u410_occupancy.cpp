// Occupancy calculator: CTAs per SM under the warp, block, register and shared-memory limits.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("occupancy: the binding limit") {
  Program small = parse_kernel(".kernel k\n.reg u32 a\n", "k.hwk");
  Occupancy o = compute_occupancy(test::h100(), small, 512);   // 16 warps per block
  CHECK(o.ctas_per_sm == 4);                                    // 64 warps per SM
  CHECK(o.limiter == "warps");
  CHECK(o.theoretical == doctest::Approx(1.0));
  Occupancy tiny = compute_occupancy(test::h100(), small, 32);  // 1 warp per block
  CHECK(tiny.ctas_per_sm == 32);                                // 32 blocks per SM
  CHECK(tiny.theoretical == doctest::Approx(0.5));
  Program big_smem = parse_kernel(".kernel k\n.shared f32 s[16384]\n", "k.hwk");  // 64 KiB + 1 KiB reserved
  Occupancy sm = compute_occupancy(test::h100(), big_smem, 128);
  CHECK(sm.ctas_per_sm == 3);                                   // 227 KiB / 65 KiB
  CHECK(sm.limiter == "shared memory");
  std::string regs = ".kernel k\n.reg u64 r<64>\n";              // 128 registers per thread
  Occupancy rg = compute_occupancy(test::h100(), parse_kernel(regs, "k.hwk"), 256);
  CHECK(rg.registers_per_thread == 128);
  CHECK(rg.ctas_per_sm == 2);                                   // 65536 / (128 × 256)
  CHECK(rg.limiter == "registers");
}
