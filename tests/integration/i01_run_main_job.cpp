// The README's main job runs, prints a result table and exits 0.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: the README run command prints a result and exits 0") {
  CliRun r = run_hwsim("--chip configs/h100.toml --workload gemm:M=4096,N=4096,K=4096,dtype=bf16");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(contains(r.out, "H100"));
  CHECK(contains(r.out, "gemm"));
  CHECK(lines_of(r.out).size() > 3);
}

TEST_CASE("cli: a bare chip name and the run subcommand work too") {
  CliRun r = run_hwsim("run --chip h100 --workload gemm:M=512,N=512,K=512 --quiet");
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());  // --quiet: no text report
}
