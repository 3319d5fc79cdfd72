// A partition count that does not divide the CUs: exit 3, one line naming the key, no output.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli mi300x: gpu.partitions=7 is one config error line") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--chip mi300x -w gemm:M=64,N=64,K=64 --set gpu.partitions=7 --json '" + json.string() + "'");
  CHECK(r.exit_code == 3);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "gpu.partitions"));
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(json));
}
