// The tile choice follows the problem: a large square GEMM gets a big tile (operand reuse), a tiny
// GEMM a small one (no padded work, more CTAs to spread).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/gemm_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("gemm tiling: big tile for a large square GEMM and small tile for a tiny one") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  GemmTiling big = choose_gemm_tiling(GemmOp{8192, 8192, 8192, 1, DType::bf16, DType::bf16, DType::bf16}, chip);
  GemmTiling tiny = choose_gemm_tiling(GemmOp{64, 64, 64, 1, DType::bf16, DType::bf16, DType::bf16}, chip);
  CAPTURE(big.bm);
  CAPTURE(big.bn);
  CAPTURE(tiny.bm);
  CAPTURE(tiny.bn);
  // Big: at least 128×128 outputs per CTA (≥ 64 FLOP per operand byte loaded in bf16).
  CHECK(big.bm * big.bn >= 128 * 128);
  // Tiny: a 64×64 output fits one 64×64 tile; a bigger tile only computes padding.
  CHECK(tiny.bm * tiny.bn <= 64 * 64);
  CHECK(tiny.bm * tiny.bn < big.bm * big.bn);
}
