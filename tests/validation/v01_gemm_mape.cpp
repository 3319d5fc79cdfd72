// Accuracy gate: the GEMM predictions stay within 10 % MAPE of the real H100 measurements in
// ../shared/calibration/h100_calibration.jsonl (the shared folder sits beside the clone).
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("validation: H100 GEMM MAPE <= 10 %") {
  std::string records = std::string(HWSIM_SOURCE_DIR) + "/../shared/calibration/h100_calibration.jsonl";
  REQUIRE_MESSAGE(std::filesystem::exists(records), records << " is missing: clone beside shared/");
  CliRun r = run_hwsim("validate '" + records + "' --chip configs/h100.toml --kind gemm --max-mape 10");
  INFO(r.out);
  INFO(r.err);
  CHECK(r.exit_code == 0);
}
