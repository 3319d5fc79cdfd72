// A kernel with more CTAs (or stream-K output tiles) than the tile model simulates is refused with
// one line and exit 4, not simulated into an out-of-memory crash.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: a GEMM too large to simulate tile by tile exits 4 with one line") {
  // 1e6 x 1e6 output: (1e6/256)·(1e6/128) ≈ 3e7 tiles for the largest tile, above the 4e6 limit.
  // Its 2 TB output needs an HBM of that size, or the capacity check refuses it first.
  CliRun r = run_hwsim("--chip configs/h100.toml --set memory.hbm.size=10TB -w gemm:M=1000000,N=1000000,K=1024 -q");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "more than the tile model simulates"));
}
