// Sweep files (TOML): the spec they describe, and one FILE:LINE line for each mistake.
#include <doctest/doctest.h>

#include "app/sweep/sweep_file.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using hwsim::test::fixture;

TEST_CASE("sweep file: chip, workload, set and [[vary]] tables in order") {
  SweepSpec s = load_sweep_file(fixture("sweep/what_if.toml"));
  CHECK(s.chip == "h100");
  CHECK(s.workload == "gemm:M=256,N=4096,K=4096,dtype=bf16");
  CHECK(s.overrides == std::vector<std::string>{"gpu.sm_count=132"});
  REQUIRE(s.axes.size() == 2);
  CHECK(s.axes[0].key == "memory.hbm.bandwidth");
  CHECK(s.axes[0].values == std::vector<std::string>{"1 TB/s", "2 TB/s"});
  CHECK(s.axes[1].values == std::vector<std::string>{"64", "128"});
  CHECK_FALSE(s.zip);
}

static std::string error_of(const std::string& file) {
  try {
    load_sweep_file(fixture(file));
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::usage);
    return e.what();
  }
  FAIL("accepted " << file);
  return {};
}

TEST_CASE("sweep file: an unknown field and a bad range name the file and line") {
  std::string e = error_of("sweep/bad_field.toml");
  CHECK(e.find("bad_field.toml:6: [[vary]] valuez: unknown field") != std::string::npos);
  CHECK(e.find("(did you mean values?)") != std::string::npos);
  e = error_of("sweep/bad_range.toml");
  CHECK(e.find("bad_range.toml:6: --vary workload.M: '256..1*2': empty range") != std::string::npos);
}
