// Collective options a system cannot honour, each one line, exit 4, no output file:
// torus on an NVSwitch pair (the algorithms that can run are named), LL on a TPU pod (XLA has only
// bulk transfers: collective.low_latency_protocols = false), and a size of 0 B.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
CliRun refused(const std::string& args) {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim(args + " --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK_FALSE(std::filesystem::exists(json));
  return r;
}
}  // namespace

TEST_CASE("cli system: algo=torus on h200x2 exits 4 naming the algorithms that can run") {
  CliRun r = refused("--system h200x2 -w collective:op=all_reduce,bytes=1MiB,ranks=2,algo=torus");
  CHECK(contains(r.err, "algo=torus"));
  CHECK(contains(r.err, "ring"));
  CHECK(contains(r.err, "tree"));
}

TEST_CASE("cli system: proto=LL on tpu_v5e_16x16 exits 4, Simple being the only protocol") {
  CliRun r = refused("--system tpu_v5e_16x16 -w collective:op=all_reduce,bytes=1MiB,ranks=256,proto=LL");
  CHECK(contains(r.err, "proto=LL"));
  CHECK(contains(r.err, "Simple"));
}

TEST_CASE("cli system: a collective of 0 B exits 4") {
  CliRun r = refused("--system h200x2 -w collective:op=all_reduce,bytes=0B");
  CHECK(contains(r.err, "bytes"));
  CHECK(contains(r.err, "0B"));
}
