// When the weights do not fit SRAM beside the arena they stay in flash and every op streams its
// own from there: the NPU reads each weight byte once per inference over its AXI port, at the
// flash's bandwidth — slower than from SRAM.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("mcu run: vww_mobilenet with 200 KiB of SRAM streams its 230 kB of weights from flash") {
  Config config = load_chip(chip_file("cortex_m55_u55"), {"memory.sram.size=200KiB"});
  RunResult r = simulate(config, WorkloadCatalog::build("vww_mobilenet"));
  const InferenceMetrics& m = r.inference;
  REQUIRE(m.present);
  CHECK(m.weights_in_sram == 0);
  CHECK(m.weights_in_flash == m.weight_bytes);
  CHECK(m.flash_traffic == doctest::Approx(m.weight_bytes));
  CHECK(m.weight_bytes > 200e3);
  // at least the weights at flash bandwidth (0.4 GB/s)
  CHECK(m.latency > m.weight_bytes / 0.4e9);
}
