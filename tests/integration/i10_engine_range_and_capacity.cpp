// A chip whose numbers put a delay beyond the engine's range (about 5 hours of simulated time),
// or a workload whose op does not fit main memory, stops with one line and exit 4 — never a hang,
// a wrap-around or a multi-line internal error.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: a 1 kB/s TPU HBM (the lowest bandwidth in range) is beyond the engine's range: exit 4, one line") {
  CliRun r = run_hwsim("--chip tpu_v5e --set memory.hbm.bandwidth=1kB/s -w decode_llama8b -q");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "beyond the engine's range"));
}

TEST_CASE("cli: a 1 Hz TPU clock is below the range of a clock: exit 3, one line") {
  CliRun r = run_hwsim("--chip tpu_v5e --set systolic.clock=1Hz -w decode_llama8b -q");
  CHECK(r.exit_code == 3);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "systolic.clock: '1Hz' is out of range (a value between 1 kHz and 1 THz)"));
}

TEST_CASE("cli: a GEMM whose tensors exceed HBM does not fit: exit 4, one line naming the level") {
  CliRun r = run_hwsim("--chip tpu_v5e -w gemm:M=100000,N=100000,K=100000 -q");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "does not fit TPU v5e: gemm reads and writes 60 GB of tensors, the hbm holds"));
}

TEST_CASE("cli: a long generate at a slow HBM finishes (no livelock past a few seconds)") {
  CliRun r = run_hwsim("--chip h100 --set memory.hbm.bandwidth=50GB/s -w generate:model=llama3_8b,prompt=128,output=40 -q");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}
