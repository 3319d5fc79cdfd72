// An unknown system name lists the shipped systems with a did-you-mean (exit 3); --chip and
// --system together is a bad command line (exit 2). One line each, no output file.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: an unknown system name exits 3 listing the shipped ones") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--system h20x2 -w decode_llama8b --json '" + json.string() + "'");
  CHECK(r.exit_code == 3);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "h20x2"));
  CHECK(contains(r.err, "dgx_h100"));
  CHECK(contains(r.err, "did you mean h200x2?"));
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli system: --chip and --system together exit 2") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--chip h100 --system h200x2 -w decode_llama8b --json '" + json.string() + "'");
  CHECK(r.exit_code == 2);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "--chip and --system"));
  CHECK_FALSE(std::filesystem::exists(json));
}
