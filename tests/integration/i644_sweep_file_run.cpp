// A sweep file runs like the same sweep on the command line.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("sweep: a sweep file and its command-line twin write the same rows") {
  auto a = (scratch_dir() / "file.csv").string(), b = (scratch_dir() / "cli.csv").string();
  CliRun f = run_hwsim("sweep tests/fixtures/sweep/what_if.toml --out " + a);
  CHECK(f.exit_code == 0);
  CliRun c = run_hwsim("sweep --chip h100 -w gemm:M=256,N=4096,K=4096,dtype=bf16 --set gpu.sm_count=132 "
                       "--vary memory.hbm.bandwidth=1TB/s..2TB/s:2 --vary workload.M=64,128 --out " + b);
  CHECK(c.exit_code == 0);
  CHECK(lines_of(read_text(a)).size() == 5);
  CHECK(read_text(a) == read_text(b));
}
