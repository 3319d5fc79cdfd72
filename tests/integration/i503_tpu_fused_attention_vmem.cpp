// Fused (flash-style) attention holds its Q·Kᵀ and P·V blocks in VMEM at once: it picks blocks
// (and packs of decode groups) that fit both; a VMEM too small for the smallest is one line naming
// the op and the alternative, exit 4.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: fused attention shrinks its blocks to fit a 300 KiB VMEM") {
  CliRun r = run_hwsim("--chip tpu_v5e --set systolic.attention=fused --set memory.vmem.size=300KiB -w prefill_llama8b -q");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("cli: fused attention packs decode groups only as far as VMEM holds both blocks") {
  // 256 sequences x 8 KV heads of decode attention on a v6e: packs that Q·Kᵀ alone would allow
  // overflow VMEM once the P·V blocks are added.
  CliRun r = run_hwsim("--chip tpu_v6e --set systolic.attention=fused -w decode_llama8b:batch=256 -q");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("cli: fused attention in a 100 KiB VMEM exits 4 with one line naming the alternative") {
  CliRun r = run_hwsim("--chip tpu_v5e --set systolic.attention=fused --set memory.vmem.size=100KiB -w prefill_llama8b -q");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "L0.attention: fused attention's smallest Q·Kᵀ and P·V blocks need"));
  CHECK(contains(r.err, "systolic.attention=materialized"));
}
