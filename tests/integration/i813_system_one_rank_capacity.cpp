// A one-rank workload on a system must be checked against its device's memory as on --chip:
// decode_llama70b (141 GB of bf16 weights) on one H100 of dgx_h100 (80 GB), and a GEMM whose
// tensors (3 × 200000² × 2 B = 240 GB) exceed an H200's 141 GB, are refused (exit 4, one line,
// no output file) as `--chip h100` and `--chip h200` refuse them.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: decode_llama70b with tp=1 on dgx_h100 does not fit one H100") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--system dgx_h100 -w decode_llama70b --quiet --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "does not fit"));
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli system: a GEMM larger than one H200 is refused on h200x2") {
  auto json = scratch_dir() / "never.json";
  CliRun r = run_hwsim("--system h200x2 -w gemm:M=200000,N=200000,K=200000 --quiet --json '" + json.string() + "'");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "does not fit"));
  CHECK_FALSE(std::filesystem::exists(json));
}
