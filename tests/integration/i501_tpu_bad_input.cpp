// Bad input on a TPU: each is one stderr line and a non-zero exit (3 configuration, 4 workload).
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: an fp8 GEMM on TPU v5e (no fp8 MXU mode) exits 4 naming op, dtype, chip and key") {
  CliRun r = run_hwsim("--chip tpu_v5e -w gemm:M=256,N=256,K=256,dtype=fp8");
  CHECK(r.exit_code == 4);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "gemm: fp8 math is not supported by TPU v5e (systolic.mxu.macs_per_cell.fp8 is 0)"));
  CHECK(r.out.empty());
}

TEST_CASE("cli: an MXU of zero rows exits 3") {
  CliRun r = run_hwsim("--chip tpu_v5e -w gemm:M=256,N=256,K=256 --set systolic.mxu.rows=0");
  CHECK(r.exit_code == 3);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "systolic.mxu.rows"));
}

TEST_CASE("cli: VMEM smaller than one double-buffered tile exits 4") {
  CliRun r = run_hwsim("--chip tpu_v5e -w gemm:M=4096,N=4096,K=4096 --set memory.vmem.size=64KiB");
  CHECK(r.exit_code == 4);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "the smallest double-buffered tile needs"));
  CHECK(contains(lines[0], "memory.vmem.size"));
}

TEST_CASE("cli: a misspelt MXU key exits 3 with the component and a suggestion") {
  CliRun r = run_hwsim("--chip tests/fixtures/systolic/bad_mxu_key.toml -w gemm:M=256,N=256,K=256");
  CHECK(r.exit_code == 3);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "systolic.mxu.rowz: unknown key in [systolic.mxu] of a systolic chip"));
}
