// Fused (flash-style) attention holds its Q·Kᵀ and P·V blocks in VMEM at once: a VMEM too small
// for both is one line naming the op and the alternative, exit 4; materialised attention runs.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: fused attention in a 300 KiB VMEM exits 4 with one line, materialised runs") {
  CliRun r = run_hwsim("--chip tpu_v5e --set systolic.attention=fused --set memory.vmem.size=300KiB -w prefill_llama8b -q");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "L0.attention: fused attention's Q·Kᵀ and P·V blocks"));
  CHECK(contains(r.err, "systolic.attention=materialized"));
  CliRun m = run_hwsim("--chip tpu_v5e --set memory.vmem.size=300KiB -w prefill_llama8b -q");
  CHECK(m.exit_code == 0);
}
