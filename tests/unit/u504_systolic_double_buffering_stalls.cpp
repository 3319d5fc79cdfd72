// When the HBM loads take longer than the MXU work (a weight-streaming GEMM on a chip whose HBM
// is slow for its arrays), double buffering cannot hide them: the compute waits, the wait is
// reported in vmem_stall and as the memory share of the breakdown, and the op runs at the HBM
// rate. (On the shipped v5e a batch-8 GEMV is nearly balanced: with T = 8 < R = 128 rows the MXUs
// spend almost as long shifting weights in as HBM takes to deliver them; a 200 GB/s HBM makes
// the wait unmistakable.)
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("systolic double buffering: a memory-bound 8x8192x8192 bf16 GEMM stalls on a 200 GB/s HBM") {
  Config config = load_chip(chip_file("tpu_v5e"), {"memory.hbm.bandwidth=200GB/s"});
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=8,N=8192,K=8192,dtype=bf16"));
  const WorkRecord& g = r.steps.at(0).records.at(0);
  CHECK(g.bound == "memory");
  // 128 MiB of weights at 0.9 × 200 GB/s = 746 us; the MXUs need about 180 us of it.
  double weights = 8192.0 * 8192 * 2;
  double stream = weights / (0.9 * 200e9);
  CHECK(g.seconds > stream);
  CHECK(g.seconds < 1.1 * stream);
  CHECK(g.detail("vmem_stall") > 0.6 * g.seconds);
  CHECK(g.breakdown.memory == doctest::Approx(g.detail("vmem_stall")));
  CHECK(g.breakdown.memory > g.breakdown.compute + g.breakdown.overhead);
  CHECK(g.bytes_at("hbm") >= weights);
}
