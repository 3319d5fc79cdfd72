// The H200 what-if of issue 3: from the hardware description alone (configs/h200.toml changes
// only memory), the predicted H200/H100 decode-step time ratio must be within 5 % of the measured
// ratio for every Llama decode configuration measured on both GPUs.
#include <doctest/doctest.h>

#include <map>

#include "tests/fixtures/csv_cells.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
// workload spec → (measured, predicted) seconds, from `hwsim validate --csv`.
std::map<std::string, std::pair<double, double>> decode_times(const std::string& file, const std::string& chip) {
  std::string records = std::string(HWSIM_SOURCE_DIR) + "/data/measurements/" + file;
  std::string csv = (scratch_dir() / (chip + ".csv")).string();
  CliRun r = run_hwsim("validate '" + records + "' --chip configs/" + chip + ".toml --kind decode_step --csv '" + csv + "'");
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::pair<double, double>> out;
  auto rows = lines_of(read_text(csv));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    // kind,measured_s,predicted_s,error_pct,workload,...
    std::vector<std::string> cells = csv_cells(rows[i]);
    REQUIRE(cells.size() >= 5);
    out[cells[4]] = {std::stod(cells[1]), std::stod(cells[2])};
  }
  return out;
}
}  // namespace

TEST_CASE("validation: H200/H100 decode-step ratio within 5 % of the measured ratio") {
  auto h100 = decode_times("h100_llm.jsonl", "h100");
  auto h200 = decode_times("h200_llm.jsonl", "h200");
  REQUIRE(h200.size() >= 10);
  for (const auto& entry : h200) {
    const auto& spec = entry.first;
    const auto& times = entry.second;
    REQUIRE(h100.count(spec));
    double measured_ratio = times.first / h100[spec].first;
    double predicted_ratio = times.second / h100[spec].second;
    INFO(spec << ": measured " << measured_ratio << ", predicted " << predicted_ratio);
    CHECK(std::abs(predicted_ratio / measured_ratio - 1) <= 0.05);
  }
}
