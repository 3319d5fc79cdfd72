// A layout needing more devices than the system has is one line, exit 4, no output file.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: a collective of 3 ranks on the 2 GPUs of h200x2 exits 4") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--system h200x2 -w collective:op=all_reduce,bytes=1MiB,ranks=3 --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "needs 3 devices"));
  CHECK(contains(r.err, "has 2"));
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli system: decode_llama8b with tp=4 on h200x2 exits 4") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--system h200x2 -w decode_llama8b:tp=4 --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "needs 4 devices"));
  CHECK(contains(r.err, "tp=4"));
  CHECK_FALSE(std::filesystem::exists(json));
}
