// Double buffering: in a compute-bound GEMM the HBM loads of block i+1 hide behind block i's
// MXU work, so the only HBM wait is the first load and the last store (the pipeline's prologue
// and epilogue), a tiny part of the op.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("systolic double buffering: a compute-bound 4096^3 bf16 GEMM on TPU v5e does not stall") {
  Config config = load_chip(chip_file("tpu_v5e"), {});
  RunResult r = simulate(config, WorkloadCatalog::build("gemm:M=4096,N=4096,K=4096,dtype=bf16"));
  REQUIRE(r.steps.size() == 1);
  REQUIRE(r.steps[0].records.size() == 1);
  const WorkRecord& g = r.steps[0].records[0];
  CHECK(g.bound == "compute");
  // 2·4096³ FLOP at 197 TFLOP/s is 0.70 ms; the stall is the exposed first load and last store
  // (a few microseconds), not a share of every block.
  CHECK(g.detail("vmem_stall") > 0);
  CHECK(g.detail("vmem_stall") < 0.02 * g.seconds);
  CHECK(g.breakdown.memory == doctest::Approx(g.detail("vmem_stall")));
  CHECK(g.detail("mxu_utilisation") > 0.85);
  CHECK(g.detail("mxu_utilisation") <= 1.0);
  CHECK(g.breakdown.total() == doctest::Approx(g.seconds).epsilon(1e-9));
}
