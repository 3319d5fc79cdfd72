#pragma once
// Runs public `gemm` records (data/public/*.jsonl) on their own chip with their own `set`
// overrides, one hwsim process each, and returns predicted against measured seconds.
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

namespace hwsim::test {

struct RecordRun {
  nlohmann::json record;
  double measured = 0, predicted = 0;
  double error() const { return std::abs(predicted - measured) / measured; }
};

// The records of `file` (under data/public/) whose `role` is `role` (any role when empty).
inline std::vector<RecordRun> run_gemm_records(const std::string& file, const std::string& role = "") {
  std::ifstream in(std::string(HWSIM_SOURCE_DIR) + "/data/public/" + file);
  REQUIRE_MESSAGE(in, "cannot read data/public/" << file);
  std::vector<RecordRun> runs;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto r = nlohmann::json::parse(line);
    if (!role.empty() && r.value("role", "") != role) continue;
    std::string args = "--chip " + r.at("chip").get<std::string>();
    for (const auto& s : r.value("set", nlohmann::json::array())) args += " --set '" + s.get<std::string>() + "'";
    args += " -w gemm:M=" + std::to_string(r.at("M").get<long>()) + ",N=" + std::to_string(r.at("N").get<long>()) +
            ",K=" + std::to_string(r.at("K").get<long>()) + ",dtype=" + r.at("dtype").get<std::string>();
    auto doc = run_hwsim_json(args, "record" + std::to_string(++n) + ".json");
    runs.push_back({r, r.at("seconds").get<double>(), doc.at("result").at("seconds").get<double>()});
  }
  return runs;
}

inline double mape(const std::vector<RecordRun>& runs) {
  double sum = 0;
  for (const auto& r : runs) sum += r.error();
  return runs.empty() ? 0 : sum / double(runs.size());
}

}  // namespace hwsim::test
