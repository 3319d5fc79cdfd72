// `hwsim list params KIND` prints only the keys a chip of that device kind takes; an unknown kind
// exits 2 with the known ones; `list frameworks` prints the framework passes.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: list params gpu shows GPU and shared keys and no key of another kind") {
  CliRun r = run_hwsim("list params gpu");
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "gpu.sm_count"));
  CHECK(contains(r.out, "memory.hbm.bandwidth"));
  CHECK(contains(r.out, "kind"));
  for (const auto& line : lines_of(r.out)) CHECK_MESSAGE(line.rfind("systolic.", 0) != 0, line);
}

TEST_CASE("cli: list params with an unknown kind exits 2 and names the known kinds") {
  CliRun r = run_hwsim("list params gpuu");
  CHECK(r.exit_code == 2);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "unknown kind 'gpuu'"));
  CHECK(contains(r.err, "did you mean gpu?"));
}

TEST_CASE("cli: list frameworks names the eager, fused and xla passes") {
  CliRun r = run_hwsim("list frameworks");
  CHECK(r.exit_code == 0);
  for (const char* name : {"kernels=eager", "kernels=fused", "kernels=xla"}) CHECK_MESSAGE(contains(r.out, name), name);
}
