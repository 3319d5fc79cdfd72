// A result's roofline floor is max(FLOPs ÷ peak FLOP rate, minimum bytes ÷ HBM bandwidth),
// computed here by hand from the chip's datasheet parameters.
#include <doctest/doctest.h>

#include <algorithm>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("roofline: compute-bound 4096x4096x4096 bf16 GEMM on H100") {
  Config config = load_chip(chip_file("h100"), {});
  const double M = 4096, N = 4096, K = 4096;
  const double flops = 2 * M * N * K;                    // one multiply and one add per MAC
  const double bytes = (M * K + N * K + M * N) * 2;      // A, B read once, C written once; 2 B each
  const double peak = config.whole("gpu.sm_count") * config.number("gpu.sm.flops_per_clock.bf16") *
                      config.number("gpu.sm.clock");     // 132 × 4096 × 1.98e9 = 1.07e15 FLOP/s
  const double bandwidth = config.number("memory.hbm.bandwidth");  // 3.35e12 B/s
  const double floor = std::max(flops / peak, bytes / bandwidth);  // 128 us vs 30 us
  CHECK(flops / peak > bytes / bandwidth);

  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=4096,N=4096,K=4096,dtype=bf16"));
  CHECK(r.flops == flops);
  CHECK(r.min_bytes == bytes);
  CHECK(r.roofline_floor == doctest::Approx(floor).epsilon(1e-12));
  CHECK(r.bound == "compute");
  CHECK(r.seconds >= r.roofline_floor);  // nothing beats the physical limit
}

TEST_CASE("roofline: memory-bound 1x8192x8192 bf16 GEMV on H100") {
  Config config = load_chip(chip_file("h100"), {});
  const double M = 1, N = 8192, K = 8192;
  const double flops = 2 * M * N * K;
  const double bytes = (M * K + N * K + M * N) * 2;      // the 128 MiB weight dominates
  const double peak = config.whole("gpu.sm_count") * config.number("gpu.sm.flops_per_clock.bf16") *
                      config.number("gpu.sm.clock");
  const double bandwidth = config.number("memory.hbm.bandwidth");
  const double floor = std::max(flops / peak, bytes / bandwidth);  // 0.13 us vs 40 us
  CHECK(bytes / bandwidth > flops / peak);

  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=1,N=8192,K=8192,dtype=bf16"));
  CHECK(r.roofline_floor == doctest::Approx(floor).epsilon(1e-12));
  CHECK(r.bound == "memory");
  CHECK(r.seconds >= r.roofline_floor);
}
