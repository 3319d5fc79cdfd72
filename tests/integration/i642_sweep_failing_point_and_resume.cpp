// A point that fails is a row with its error (the sweep goes on, exit 0, one note on stderr);
// --resume runs only the points missing from the output and ends with the same file.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

static const std::string kSweep =
    "sweep --chip h100 --workload gemm:M=64,N=2048,K=2048,dtype=bf16 --vary memory.hbm.size=1MiB,80GiB "
    "--vary workload.N=1024,2048";

TEST_CASE("sweep: a point that does not fit is recorded, not fatal") {
  auto out = (scratch_dir() / "fail.csv").string();
  CliRun r = run_hwsim(kSweep + " --out " + out);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.err, "2 of 4 points failed"));
  auto lines = lines_of(read_text(out));
  REQUIRE(lines.size() == 5);
  CHECK(lines[1].rfind("0,1MiB,1024,error,", 0) == 0);
  CHECK(contains(lines[1], "does not fit"));
  CHECK(lines[3].rfind("2,80GiB,1024,ok,", 0) == 0);
}

TEST_CASE("sweep: --resume keeps the rows there and fills in the rest") {
  auto out = (scratch_dir() / "resume.csv").string();
  REQUIRE(run_hwsim(kSweep + " --out " + out).exit_code == 0);
  std::string complete = read_text(out);
  auto lines = lines_of(complete);
  {  // keep the header, row 0 and row 3, and half of row 1 (a sweep killed mid-write)
    std::ofstream cut(out);
    cut << lines[0] << "\n" << lines[4] << "\n" << lines[1] << "\n" << lines[2].substr(0, 5);
  }
  CliRun r = run_hwsim(kSweep + " --resume --out " + out);
  CHECK(r.exit_code == 0);
  CHECK(read_text(out) == complete);
}
