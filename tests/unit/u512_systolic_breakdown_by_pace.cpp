// The TPU breakdown speaks the GPU's vocabulary: an HBM-paced run (a decode's weight-streaming
// GEMVs) is mostly waiting on memory, a compute-paced one (a big GEMM) mostly compute; the shares
// add up to the run's time either way.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("systolic breakdown: decode on TPU v5p is mostly waiting on memory") {
  RunResult r = simulate(load_chip("tpu_v5p", {}), WorkloadCatalog::build("decode_llama8b"));
  CHECK(r.bound == "memory");
  CHECK(r.breakdown.memory > 0.5 * r.seconds);
  CHECK(r.breakdown.memory > 4 * r.breakdown.compute);
  CHECK(r.breakdown.total() == doctest::Approx(r.seconds).epsilon(1e-9));
}

TEST_CASE("systolic breakdown: a 4096^3 GEMM on TPU v5e is mostly compute") {
  RunResult r = simulate(load_chip("tpu_v5e", {}), WorkloadCatalog::build("gemm:M=4096,N=4096,K=4096,dtype=bf16"));
  CHECK(r.breakdown.compute > 0.9 * r.seconds);
  CHECK(r.breakdown.memory < 0.05 * r.seconds);
  CHECK(r.breakdown.total() == doctest::Approx(r.seconds).epsilon(1e-9));
}
