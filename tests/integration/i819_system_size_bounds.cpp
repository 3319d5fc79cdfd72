// Sizes beyond what a run can simulate are one line and a non-zero exit, never a crash or a
// runaway: a layout whose rank product overflows 64 bits, more microbatches than the bound, a
// collective with more transfers than the bound, a system file describing too many links.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
void check_refused(const std::string& args, int code, const std::string& words) {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim(args + " --json '" + json.string() + "'");
  INFO(r.err);
  CHECK(r.exit_code == code);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, words));
  CHECK_FALSE(std::filesystem::exists(json));
}
}  // namespace

TEST_CASE("cli system: a rank product past 64 bits is out of range, not a crash") {
  check_refused("--system h100_cluster -w decode:model=llama3_8b,context=128,tp=1099511627776,"
                "dp=1099511627776,batch=1099511627776",
                4, "ranks is out of range (at most 1000000)");
}

TEST_CASE("cli system: a million microbatches are out of range") {
  check_refused("--system h200x2 -w decode:model=llama3_8b,context=128,pp=2,microbatches=1000000,batch=1000000", 4,
                "microbatches=1000000 is out of range");
}

TEST_CASE("cli system: an all_to_all over 1024 ranks is too many transfers to simulate") {
  check_refused("--system h100_cluster -w collective:op=all_to_all,bytes=1MiB,ranks=1024", 4,
                "too many transfers to simulate");
}

TEST_CASE("cli system: a million devices of 64 switches each is too many links") {
  check_refused("--system dgx_h100 --set scale_up.devices=1000000 --set scale_up.switches=64 --set scale_up.links=64 "
                "-w collective:bytes=1MiB,ranks=2",
                3, "link bundles");
}
