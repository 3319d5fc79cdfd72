// `hwsim list params|chips|workloads|models` print what exists.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: list params prints every declared key with its type and default and description") {
  CliRun r = run_hwsim("list params");
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "memory.hbm.bandwidth"));
  CHECK(contains(r.out, "gpu.sm_count"));
  CHECK(contains(r.out, "required"));
  CHECK(contains(r.out, "gpu.tile.tensor_efficiency"));
}

TEST_CASE("cli: list chips prints the shipped chips") {
  CliRun r = run_hwsim("list chips");
  CHECK(r.exit_code == 0);
  for (const char* chip : {"a100", "h100", "h200"}) CHECK_MESSAGE(contains(r.out, chip), chip);
}

TEST_CASE("cli: list workloads and models") {
  CliRun w = run_hwsim("list workloads");
  CHECK(w.exit_code == 0);
  CHECK(contains(w.out, "gemm"));
  CliRun m = run_hwsim("list models");
  CHECK(m.exit_code == 0);
  CHECK(contains(m.out, "tile"));
}

TEST_CASE("cli: list of something unknown exits 2") {
  CliRun r = run_hwsim("list chipz");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "did you mean chips?"));
}
