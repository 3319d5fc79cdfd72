// A hand-computable GEMM on MI300X: M=256, N=2048, K=256 bf16 with 256x256 tiles is 8 workgroups,
// one per XCD, each reading all of A (256x256x2 B = 128 KiB) and its own B panel (128 KiB) and
// writing a 128 KiB output tile. With 8 private L2s, A is fetched once per XCD from the Infinity
// Cache; with one shared L2 (gpu.partitions=1, same 32 MiB) once in all.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
constexpr double kPanel = 128 * 1024;
const WorkRecord& only_record(const RunResult& r) {
  REQUIRE(r.steps.size() == 1);
  REQUIRE(r.steps[0].records.size() == 1);
  return r.steps[0].records[0];
}
}  // namespace

TEST_CASE("mi300x gemm: private XCD L2s fetch the shared A panel once per XCD") {
  Config c = load_chip(chip_file("mi300x"), {"gpu.tile.gemm_tiles=256x256x64"});
  RunResult r = simulate(c, WorkloadCatalog::build("gemm:M=256,N=2048,K=256"));
  const WorkRecord& k = only_record(r);
  REQUIRE(k.detail("workgroups") == 8);
  REQUIRE(r.memory_levels == std::vector<std::string>{"l2", "mall", "hbm"});
  // Infinity Cache: 8 A + 8 B panels missed in the XCD L2s, and the 8 output tiles written back by
  // the end-of-kernel release. Device memory: A and the 8 B panels once (the outputs stay dirty in
  // the Infinity Cache).
  CHECK(k.traffic[1] == doctest::Approx((8 + 8 + 8) * kPanel));
  CHECK(k.traffic[2] == doctest::Approx(9 * kPanel));
}

TEST_CASE("mi300x gemm: one shared 32 MiB L2 (the what-if) fetches A once") {
  Config c = load_chip(chip_file("mi300x"), {"gpu.tile.gemm_tiles=256x256x64", "gpu.partitions=1"});
  RunResult r = simulate(c, WorkloadCatalog::build("gemm:M=256,N=2048,K=256"));
  const WorkRecord& k = only_record(r);
  REQUIRE(k.detail("workgroups") == 8);
  // A once and the 8 B panels; the 8 output tiles written back by the step-end release (a step's
  // last kernel waits for its dirty L2 data), into the Infinity Cache where they stay dirty.
  CHECK(k.traffic[1] == doctest::Approx((1 + 8 + 8) * kPanel));
  CHECK(k.traffic[2] == doctest::Approx(9 * kPanel));
}
