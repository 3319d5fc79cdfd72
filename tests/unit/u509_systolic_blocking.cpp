// GEMM blocking: the chosen block fits VMEM double-buffered, block sides are multiples of the
// array (or the whole padded dimension), and the HBM traffic follows A × N-blocks + B × M-blocks
// + C (or reads one operand once when a block spans K and it stays resident).
#include <doctest/doctest.h>

#include <cmath>

#include "ops/device.h"
#include "models/systolic/gemm_blocking.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("systolic blocking: 8192^3 bf16 on TPU v4 (16 MiB VMEM per core)") {
  SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v4"), {}));
  GemmProblem p;
  p.m = p.n = p.k = 8192;
  auto b = choose_gemm_blocking(p, c);
  REQUIRE(b);
  CHECK(b->vmem_footprint <= c.vmem_bytes);
  CHECK(block_footprint(p, b->bm, b->bn, b->bk) <= c.vmem_bytes);
  CHECK(b->bn % 128 == 0);
  CHECK(b->bk % 128 == 0);
  Phase ph = gemm_phase(p, *b, c, "gemm");
  double nm = std::ceil(8192.0 / b->bm), nn = std::ceil(8192.0 / b->bn);
  double a = 8192.0 * 8192 * 2, w = a, out = a;
  double expected = b->a_resident ? a + w * nm : b->b_resident ? a * nn + w : a * nn + w * nm;
  double steps = double(ph.total_steps());
  CHECK(ph.step.load_bytes * steps == doctest::Approx(expected));
  CHECK(ph.step.store_bytes * steps == doctest::Approx(out));
  // Both TensorCores get work, evenly.
  REQUIRE(ph.steps.size() == 2);
  CHECK(ph.steps[0] == ph.steps[1]);
  CHECK(ph.mxu_macs == doctest::Approx(8192.0 * 8192 * 8192));
}

TEST_CASE("systolic blocking: HBM traffic of fixed blockings, by hand") {
  // 8192^3 bf16: A, W and C are 128 MiB each.
  SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v4"), {}));
  GemmProblem p;
  p.m = p.n = p.k = 8192;
  const double mib128 = 128.0 * 1024 * 1024;
  auto read_bytes = [&](const GemmBlocking& b) {
    Phase ph = gemm_phase(p, b, c, "gemm");
    return ph.step.load_bytes * double(ph.total_steps());
  };
  // 1024 x 1024 blocks over K in 512 slices: A re-read for each of the 8 N blocks, W for each of
  // the 8 M blocks: 8 x 128 MiB + 8 x 128 MiB = 2 GiB.
  CHECK(read_bytes(GemmBlocking{1024, 1024, 512, false, false, false, 0, 0}) == doctest::Approx(16 * mib128));
  // 512 x 2048 blocks spanning K with W resident (the M loop inside): A once per N block (4), W once.
  CHECK(read_bytes(GemmBlocking{512, 2048, 8192, false, true, false, 0, 0}) == doctest::Approx(4 * mib128 + mib128));
  // ... with x resident (the N loop inside): x once, W once per M block (16).
  CHECK(read_bytes(GemmBlocking{512, 2048, 8192, false, false, true, 0, 0}) == doctest::Approx(mib128 + 16 * mib128));
}

TEST_CASE("systolic blocking: a decode GEMV reads its weights once") {
  SystolicChip c = SystolicChip::from_config(load_chip(chip_file("tpu_v5p"), {}));
  GemmProblem p;
  p.m = 1, p.n = 14336, p.k = 4096;
  auto b = choose_gemm_blocking(p, c);
  REQUIRE(b);
  Phase ph = gemm_phase(p, *b, c, "gemm");
  double weights = 14336.0 * 4096 * 2, x = 4096.0 * 2;
  double nn = std::ceil(14336.0 / b->bn), nm = std::ceil(1.0 / b->bm);
  CHECK(nm == 1);
  double expected = b->a_resident ? x + weights : b->b_resident ? x * nn + weights : x * nn + weights * nm;
  CHECK(ph.step.load_bytes * double(ph.total_steps()) == doctest::Approx(expected));
  CHECK(expected < 1.01 * weights);
  CHECK(ph.fold_efficiency > 0);
}
