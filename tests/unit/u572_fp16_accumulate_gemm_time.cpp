// acc=fp16 on a GeForce part doubles the tensor rate (RTX 4090: 1024 vs 512 FP16 FLOP/clk/SM), so a
// compute-bound FP16 GEMM takes about half the time; on an H100 both accumulators run at the full
// rate and the GEMM takes exactly the same time. 8192³: 1.1 TFLOP over 0.4 GB, compute-bound on both.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include "ops/device.h"
#include "run/simulate.h"
#include "sim/engine/isolated_run.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
// SystemC runs once per process: each simulation in a child, its time sent back exactly (%a).
double gemm_seconds(const char* chip, const char* acc) {
  std::string text = run_isolated([&] {
    Config config = load_chip(chip_file(chip), {});
    double s = simulate(config, WorkloadCatalog::build(std::string("gemm:M=8192,N=8192,K=8192,dtype=fp16,acc=") + acc))
                   .seconds;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", s);
    return std::string(buf);
  });
  return std::strtod(text.c_str(), nullptr);
}
}  // namespace

TEST_CASE("fp16 accumulate: about 2x faster on an RTX 4090, the same on an H100") {
  double rtx32 = gemm_seconds("rtx4090", "fp32"), rtx16 = gemm_seconds("rtx4090", "fp16");
  // 2·8192³ / (512 FLOP/clk × 128 SMs × 2.52 GHz × 0.89) = 7.5 ms vs 3.7 ms at 1024 FLOP/clk.
  CHECK(rtx32 > 6.5e-3);
  CHECK(rtx32 / rtx16 == doctest::Approx(2.0).epsilon(0.06));
  CHECK(gemm_seconds("h100", "fp16") == gemm_seconds("h100", "fp32"));
}
