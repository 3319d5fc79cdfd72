// FP4 on a B200: 32768 FLOP/clk/SM, twice FP8's 16384, and 0.5625 B per element (NVFP4 scales
// counted). A compute-bound 16384³ GEMM takes about half the FP8 time; its minimum bytes are
// (M·K + N·K) × 0.5625 + M·N × 2 (bf16 result), by hand.
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
// SystemC runs once per process: each simulation in a child, its figures sent back exactly (%a).
struct GemmFigures { double seconds, min_bytes, flops, floor; bool compute_bound; };
GemmFigures run_gemm(const char* dtype) {
  std::string text = run_isolated([&] {
    Config config = load_chip(chip_file("b200"), {});
    RunResult r = simulate(config, WorkloadCatalog::build(std::string("gemm:M=16384,N=16384,K=16384,dtype=") + dtype));
    char buf[256];
    std::snprintf(buf, sizeof buf, "%a %a %a %a %d", r.seconds, r.min_bytes, r.flops, r.roofline_floor,
                  int(r.bound == "compute"));
    return std::string(buf);
  });
  GemmFigures f{};
  int compute = 0;
  std::sscanf(text.c_str(), "%la %la %la %la %d", &f.seconds, &f.min_bytes, &f.flops, &f.floor, &compute);
  f.compute_bound = compute == 1;
  return f;
}
}  // namespace

TEST_CASE("fp4 on B200: min bytes with block scales, about half the FP8 time when compute-bound") {
  const double n = 16384;
  GemmFigures fp4 = run_gemm("fp4");
  CHECK(fp4.min_bytes == 2 * n * n * 0.5625 + n * n * 2);
  CHECK(fp4.flops == 2 * n * n * n);
  CHECK(fp4.compute_bound);
  // floor: 8.8e12 FLOP / 9.0e15 FLOP/s = 0.98 ms
  CHECK(fp4.floor == doctest::Approx(2 * n * n * n / (32768.0 * 148 * 1.856e9)));
  GemmFigures fp8 = run_gemm("fp8");
  CHECK(fp8.seconds / fp4.seconds == doctest::Approx(2.0).epsilon(0.08));
}
