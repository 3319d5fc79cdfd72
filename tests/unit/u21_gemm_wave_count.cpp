// The simulated GEMM kernel has one CTA per output tile and split-K slice, and its wave count is
// CTAs ÷ (SMs × CTAs per SM).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/gemm_lowering.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("gemm tiling: CTA and wave count of a 4096x4096x4096 bf16 GEMM on H100") {
  Config config = load_chip(chip_file("h100"), {});
  GpuChip chip = GpuChip::from_config(config);
  GemmOp g{4096, 4096, 4096, 1, DType::bf16, DType::bf16, DType::bf16};
  GemmTiling t = choose_gemm_tiling(g, chip);
  // Output tiles: ceil(4096 / bm) × ceil(4096 / bn), each split into split_k CTAs along K; or,
  // with stream-K, one persistent CTA per slot, each taking ceil(iterations / slots) of all tiles'
  // K iterations (4096 / bk each).
  auto ceil_div = [](int a, int b) { return (a + b - 1) / b; };
  int tiles = ceil_div(4096, t.bm) * ceil_div(4096, t.bn);
  int ctas = tiles * t.split_k;
  if (t.stream_k) {
    int iterations = tiles * ceil_div(4096, t.bk);
    int per_cta = ceil_div(iterations, chip.sm_count * t.ctas_per_sm);
    ctas = ceil_div(iterations, per_cta);
  }
  double waves = double(ctas) / (double(chip.sm_count) * t.ctas_per_sm);

  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=4096,N=4096,K=4096,dtype=bf16"));
  REQUIRE(r.steps.size() == 1);
  REQUIRE(r.steps[0].records.size() == 1);
  const WorkRecord& k = r.steps[0].records[0];
  CHECK(k.detail("ctas") == ctas);
  CHECK(k.detail("ctas_per_sm") == t.ctas_per_sm);
  CHECK(k.detail("waves") == doctest::Approx(waves));
  CHECK(k.detail("sms_used") == std::min(ctas, chip.sm_count));
  // 4096 is divisible by every tile edge the libraries use: (4096/128)² = 1024 tiles of 128×128
  // would be 1024 / 132 = 7.76 waves at one CTA per SM; any tile gives at least one full wave.
  CHECK(k.detail("waves") >= 1.0);
}
