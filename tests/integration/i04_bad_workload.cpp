// A bad workload spec exits 4 with one line and no output file.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: a bad workload spec exits 4") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--chip configs/h100.toml --workload gemm:M=4096,N=4096,dtype=bf16 --json '" +
                       json.string() + "'");  // K is missing
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "K"));
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli: an unknown workload exits 4 and lists the known ones") {
  CliRun r = run_hwsim("--chip configs/h100.toml --workload gemmm:M=1,N=1,K=1");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "did you mean gemm?"));
}

TEST_CASE("cli: an unsupported dtype on a chip exits 4") {
  // A100 has no FP8 tensor cores (gpu.sm.flops_per_clock.fp8 = 0).
  CliRun r = run_hwsim("--chip configs/a100.toml --workload gemm:M=256,N=256,K=256,dtype=fp8");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
}
