// Bad sweep input: one clear line, a non-zero exit, and no output file.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

static void check_refused(const std::string& args, int code, const std::string& line_part) {
  auto out = scratch_dir() / "never.csv";
  CliRun r = run_hwsim(args + " --out " + out.string());
  CHECK(r.exit_code == code);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, line_part));
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("sweep: an unknown config key in --vary") {
  check_refused("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary memory.hbm.bandwith=1TB/s,2TB/s", 3,
                "--vary memory.hbm.bandwith: unknown key");
}

TEST_CASE("sweep: an unknown workload field in --vary") {
  check_refused("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.batchsize=1,2", 4,
                "batchsize: unknown field");
}

TEST_CASE("sweep: an empty range") {
  check_refused("sweep --chip h100 -w gemm:M=64,N=64,K=64 --vary workload.M=256..1*2", 2,
                "--vary workload.M: '256..1*2': empty range");
}

TEST_CASE("sweep: a sweep file with an error names file:line") {
  check_refused("sweep tests/fixtures/sweep/bad_field.toml", 2, "bad_field.toml:6: [[vary]] valuez: unknown field");
}
