// DS-CNN on the Cortex-M55 + Ethos-U55-256: every op on the NPU, the driver's start on the CPU;
// the inference metrics are derived once from the records (latency = their sum, MACs exact).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("mcu run: kws_dscnn on cortex_m55_u55, all on the NPU, weights in SRAM") {
  Config config = load_chip(chip_file("cortex_m55_u55"), {});
  RunResult r = simulate(config, WorkloadCatalog::build("kws_dscnn"));
  const InferenceMetrics& m = r.inference;
  REQUIRE(m.present);
  CHECK(m.inferences == 1);
  CHECK(m.macs == 2656768);
  CHECK(m.fallbacks.empty());
  CHECK(m.npu.ops == 12);
  CHECK(m.cpu.ops == 1);  // npu.invoke
  CHECK(m.cpu.seconds == doctest::Approx(10e-6));
  double sum = 0;
  for (const auto& k : r.steps.front().records) sum += k.seconds;
  CHECK(m.latency == doctest::Approx(sum));
  CHECK(m.inferences_per_second == doctest::Approx(1 / m.latency));
  CHECK(m.weight_bytes == 26672);
  CHECK(m.weights_in_sram == 26672);
  CHECK(m.flash_traffic == 0);
  CHECK(m.arena_peak == 16000);
  CHECK(m.energy == doctest::Approx(r.energy));
  CHECK(m.macs_per_cycle > 10);   // the U55-256 on a mostly pointwise network
  CHECK(m.macs_per_cycle < 256);
}
