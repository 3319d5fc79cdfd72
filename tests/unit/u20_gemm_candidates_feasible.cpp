// Every GEMM tile candidate fits the SM: its pipeline stages in shared memory, its accumulators in
// the register file, its resident CTAs within the SM's limits.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/gemm_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
void check_feasible(const GemmOp& g, const GpuChip& chip) {
  auto candidates = gemm_candidates(g, chip);
  REQUIRE_FALSE(candidates.empty());
  double ea = bytes_per_element(g.a), eb = bytes_per_element(g.b);
  for (const auto& t : candidates) {
    CAPTURE(t.bm);
    CAPTURE(t.bn);
    CAPTURE(t.stages);
    CAPTURE(t.ctas_per_sm);
    // One pipeline stage holds a bm×bk slice of A and a bn×bk slice of B.
    double stage_bytes = (t.bm * ea + t.bn * eb) * t.bk;
    CHECK(t.stages >= 2);  // double buffering at least
    CHECK(t.ctas_per_sm >= 1);
    CHECK(t.ctas_per_sm <= chip.max_ctas_per_sm);
    CHECK(t.ctas_per_sm * t.stages * stage_bytes <= chip.shared_memory_per_sm);
    // FP32 accumulators of every resident CTA fit the register file (4 bytes per register).
    CHECK(t.ctas_per_sm * double(t.bm) * t.bn * 4.0 <= chip.registers_per_sm * 4.0);
    CHECK(t.split_k >= 1);
    CHECK(t.predicted_seconds > 0);
  }
}
}  // namespace

TEST_CASE("gemm tiling: candidates are feasible on H100 and A100 for tensor and SIMT math") {
  for (const char* name : {"h100", "a100"}) {
    CAPTURE(name);
    GpuChip chip = GpuChip::from_config(load_chip(chip_file(name), {}));
    check_feasible(GemmOp{4096, 4096, 4096, 1, DType::bf16, DType::bf16, DType::bf16}, chip);
    check_feasible(GemmOp{4096, 4096, 4096, 1, DType::fp32, DType::fp32, DType::fp32}, chip);
    check_feasible(GemmOp{1, 4096, 14336, 1, DType::bf16, DType::bf16, DType::bf16}, chip);
  }
}
