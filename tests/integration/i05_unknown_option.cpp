// Command-line mistakes exit 2.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: an unknown option exits 2") {
  CliRun r = run_hwsim("--chip configs/h100.toml --workload gemm:M=1,N=1,K=1 --frobnicate");
  CHECK(r.exit_code == 2);
  CHECK(lines_of(r.err).size() == 1);
}

TEST_CASE("cli: a missing --workload exits 2") {
  CliRun r = run_hwsim("--chip configs/h100.toml");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--workload"));
}

TEST_CASE("cli: --help and --version exit 0") {
  CHECK(run_hwsim("--help").exit_code == 0);
  CliRun v = run_hwsim("--version");
  CHECK(v.exit_code == 0);
  CHECK(contains(v.out, HWSIM_VERSION));
}
