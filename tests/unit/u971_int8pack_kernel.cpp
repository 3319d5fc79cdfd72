// PyTorch's _weight_int8pack_mm (quant_kernel=int8pack): four kernels (x to fp32, scales to fp32,
// the product, the result back), the product one thread per output whose trips cost the L1 one
// line per weight row and activation row a warp touches, so its time grows with M (no reuse), and
// the choice of fused kernel is checked against the weights it unpacks.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/quant_gemm_lowering.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"
#include "tests/fixtures/workload_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
GemmOp int8pack(std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmOp g;
  g.m = m, g.n = n, g.k = k, g.a = g.out = DType::bf16, g.b = DType::int8, g.quant_kernel = QuantKernel::int8pack;
  return g;
}

// L1 lines a CTA's trips cost, read back from its SM time.
double l1_lines(const Kernel& k, const CtaList::View& c, const GpuChip& chip, double lines_per_clock) {
  return c.flops / k.sm_flop_rate * chip.clock_hz * lines_per_clock;
}

double gemm_seconds(const std::string& fields) {
  CliRun r = run_hwsim("--chip h100 -w 'gemm:" + fields + ",dtype=bf16,weights=int8,dequant=fused' --json -");
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["result"]["seconds"].get<double>();
}
}  // namespace

TEST_CASE("int8pack: the framework's casts around a 16x16-thread SIMT kernel") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  auto ks = lower_quant_gemm(int8pack(20, 4100, 4096), "g", chip, std::int64_t(1) << 40, {});
  REQUIRE(ks.size() == 4);
  CHECK(ks[0].name == "g.x_to_fp32");
  CHECK(ks[1].name == "g.scales_to_fp32");
  CHECK(ks[2].name == "g");
  CHECK(ks[3].name == "g.out_to_bf16");
  const Kernel& k = ks[2];
  CHECK(k.ctas.size() == std::size_t(((4100 + 15) / 16) * ((20 + 15) / 16)));  // 257 x 2 blocks
  const SimtLoopCosts& loop = chip.quant_library.simt_loop;
  // A full block: 8 warps each touching 16 weight rows and 2 activation rows per trip.
  CHECK(l1_lines(k, k.ctas[0], chip, loop.l1_lines_per_clock) == doctest::Approx(4096.0 * (8 * 16 + 16)));
  // The last column block has 4 outputs, the second row block 4 rows (2 warps).
  CHECK(l1_lines(k, k.ctas[256], chip, loop.l1_lines_per_clock) == doctest::Approx(4096.0 * (8 * 4 + 16)));
  CHECK(l1_lines(k, k.ctas[257], chip, loop.l1_lines_per_clock) == doctest::Approx(4096.0 * (2 * 16 + 4)));
  // Each trip waits for a load, a convert and an FMA: K trips of it before the CTA's L1 work.
  CHECK(k.prologue * chip.clock_hz == doctest::Approx(4096.0 * (loop.l1_latency_clocks + 2 * loop.fp32_latency_clocks)));
  // Every CTA reads its 16 weight rows once (int8) and its activation rows in fp32.
  double weights = 0;
  for (const auto& c : k.ctas) weights += c.reads[0].bytes;
  CHECK(weights == doctest::Approx(2.0 * 4100 * 4096));
  CHECK(k.ctas[0].reads[1].bytes == doctest::Approx(16.0 * 4096 * 4));
}

TEST_CASE("int8pack: no reuse across rows, so time grows with M where tinygemm's does not") {
  double m16 = gemm_seconds("M=16,N=4096,K=4096,quant_kernel=int8pack");
  double m32 = gemm_seconds("M=32,N=4096,K=4096,quant_kernel=int8pack");
  double m64 = gemm_seconds("M=64,N=4096,K=4096,quant_kernel=int8pack");
  // Two and four times the warps' L1 lines on the SMs (the exposed latency stays one per CTA).
  CHECK(m32 / m16 == doctest::Approx(2.0).epsilon(0.12));
  CHECK(m64 / m16 == doctest::Approx(4.0).epsilon(0.12));
  // The tinygemm-shaped kernel reuses its weights over 16 rows and runs on the tensor cores.
  CHECK(gemm_seconds("M=16,N=4096,K=4096,quant_kernel=tinygemm") < m16 / 10);
  // One warp per CTA at M=1: the latency of each trip, not the L1's lines, sets the pace.
  double m1 = gemm_seconds("M=1,N=4096,K=4096,quant_kernel=int8pack");
  CHECK(m1 > 0.15 * m16);
  CHECK(m1 < 0.5 * m16);
}

TEST_CASE("int8pack: a fused kernel named for weights it cannot unpack is one clear error") {
  CHECK(contains(workload_error_of("gemm:M=1,N=64,K=64,weights=int4,quant_kernel=int8pack"), "int8 weights, not int4"));
  CHECK(contains(workload_error_of("gemm:M=1,N=64,K=64,quant_kernel=marlin"), "needs weights narrower than dtype"));
  CHECK(contains(workload_error_of("gemm:M=1,N=64,K=64,weights=int8,dequant=separate,quant_kernel=int8pack"),
                 "dequant=fused"));
  std::string typo = workload_error_of("gemm:M=1,N=64,K=64,weights=int8,quant_kernel=int8pak");
  CHECK(contains(typo, "quant_kernel: 'int8pak' is not a fused weight-only kernel"));
  CHECK(contains(typo, "int8pack"));
}
