// A bad chip key: exit code 3, exactly one line on stderr, nothing on stdout, no JSON file.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: a bad chip key exits 3 with one stderr line and no output file") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--chip tests/fixtures/config/bad/unknown_key.toml --workload gemm:M=64,N=64,K=64 --json '" +
                       json.string() + "'");
  CHECK(r.exit_code == 3);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "tests/fixtures/config/bad/unknown_key.toml:5: memory.hbm.bandwith: unknown key"));
  CHECK(contains(lines[0], "did you mean memory.hbm.bandwidth?"));
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli: a bad --set value exits 3") {
  CliRun r = run_hwsim("--chip h100 --workload gemm:M=64,N=64,K=64 --set memory.hbm.bandwidth=3GHz");
  CHECK(r.exit_code == 3);
  CHECK(lines_of(r.err).size() == 1);
}
