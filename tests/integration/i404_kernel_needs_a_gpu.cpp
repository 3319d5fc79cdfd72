// Kernel programs run on a GPU's warp model: on a chip of another kind --kernel is one clear line
// and exit 2, not an internal error.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli kernel: --kernel on a TPU chip exits 2 naming the chip's kind") {
  CliRun r = run_hwsim("--chip tpu_v5e --kernel workloads/kernels/vector_add.hwk --grid 2 --block 64");
  CHECK(r.exit_code == 2);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "TPU v5e is a systolic chip"));
  CHECK(r.out.empty());
}
