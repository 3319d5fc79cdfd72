// Accuracy gate for the warp model: the microbenchmark kinds of
// ../shared/calibration/h100_calibration.jsonl stay near their calibrated MAPE (see
// models/gpu/warp/CALIBRATION.md: bank_conflict 5.7 %, latency 2.6 %, coalescing 2.9 %, branch_data
// 13.6 %, occupancy_bw 2.3 %, divergence 1.5 %), each gate a little above the current figure.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("warp calibration: microbenchmark MAPE per kind") {
  std::string records = std::string(HWSIM_SOURCE_DIR) + "/../shared/calibration/h100_calibration.jsonl";
  REQUIRE_MESSAGE(std::filesystem::exists(records), records << " is missing: clone beside shared/");
  const std::pair<const char*, double> gates[] = {{"bank_conflict", 7},  {"latency", 4},       {"coalescing", 6},
                                                  {"branch_data", 17},   {"occupancy_bw", 3},  {"divergence", 4}};
  for (const auto& gate : gates) {
    const char* kind = gate.first;
    const double mape = gate.second;
    CliRun r = run_hwsim("validate '" + records + "' --chip configs/h100.toml --kind " + kind + " --max-mape " +
                         std::to_string(mape));
    INFO(kind);
    INFO(r.out);
    CHECK(r.exit_code == 0);
  }
}
