// A workload of several devices on one --chip is refused (exit 4, one line) with the way to run
// it: a system of chips (--system).
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: tp=2 decode on --chip h100 tells you to use --system") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--chip h100 -w decode_llama8b:tp=2 --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "2 devices"));
  CHECK(contains(r.err, "--system"));
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli system: a collective on --chip h100 tells you to use --system") {
  CliRun r = run_hwsim("--chip h100 -w collective:op=all_gather,bytes=1MiB,ranks=4");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "4 devices"));
  CHECK(contains(r.err, "--system"));
}
