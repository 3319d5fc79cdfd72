// CLI details of issue 9: the design card's `--chip h100.toml`, a context beyond the model's
// maximum as a warning (the run goes on), an unknown attention implementation as one error line.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: --chip h100.toml resolves to configs/h100.toml") {
  CliRun r = run_hwsim("--chip h100.toml -w gemm:M=64,N=64,K=64 --quiet");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("cli: a context beyond max_context warns; strict=true refuses") {
  CliRun r = run_hwsim("--chip h200 -w decode:model=llama3_8b,context=32768 --quiet");
  CHECK(r.exit_code == 0);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "warning"));
  CHECK(contains(r.err, "max_context 8192"));
  CliRun strict = run_hwsim("--chip h200 -w decode:model=llama3_8b,context=32768,strict=true --quiet");
  CHECK(strict.exit_code == 4);
  CHECK(lines_of(strict.err).size() == 1);
}

TEST_CASE("cli: an unknown attention implementation is one error line") {
  CliRun r = run_hwsim("--chip h100 -w attention:heads=8,kv_len=64,impl=flash4 --quiet");
  CHECK(r.exit_code == 4);
  CHECK(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "flash2"));
}
