// Accuracy of the warp model on classic CUDA lessons compiled from their source
// (workloads/kernels/lessons/*.cu through clang and hwsim's shim; two Triton kernels from their
// PTX), against their times on an H200 (data/measurements/h200_lessons.jsonl, made by
// scripts/measure/lessons/run.sh: CUDA graph replays, so each launch finds its buffers in L2).
// Nothing was fitted to these records: the PTX path's mechanisms (the ptxas lowering's SASS
// sequences, the list scheduler, the register estimate) come from the lessons' SASS, not their
// times, and the H200's atomic costs from a probe of its own (configs/h200.toml, atomic_probe.cu;
// its same-address case is the one-bin histogram's pattern, so that record is no independent
// judge). The goals are every kernel within 20 % and each lesson's speed-up within 25 %;
// today 21 of 25 kernels are within 20 % (not: the shared-memory histogram on random bytes, the
// 1-D stencil, the L2-resident copy, one softmax at the edge), so the gates sit a little above
// today's figures, and the lessons' orderings — what a student reads off them — are checked one
// by one.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <map>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {

struct Row {
  double measured = 0, predicted = 0;
};

// (speedup_group, kernel) -> row, from validate --csv.
std::map<std::pair<std::string, std::string>, Row> lesson_rows() {
  auto csv = scratch_dir() / "lessons.csv";
  std::string records = std::string(HWSIM_SOURCE_DIR) + "/data/measurements/h200_lessons.jsonl";
  CliRun r = run_hwsim("validate '" + records + "' --chip h200 --kind lesson --csv '" + csv.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto lines = lines_of(read_text(csv));
  REQUIRE(lines.size() > 1);
  auto split = [](const std::string& line) {  // CSV with quoted fields
    std::vector<std::string> out;
    std::string f;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) out.push_back(f), f.clear();
      else f += c;
    }
    out.push_back(f);
    return out;
  };
  auto header = split(lines[0]);
  auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    FAIL("no column " << name);
    return std::size_t(0);
  };
  const std::size_t group = col("speedup_group"), kernel = col("kernel"), measured = col("measured_s"), predicted = col("predicted_s");
  std::map<std::pair<std::string, std::string>, Row> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto f = split(lines[i]);
    rows[{f[group], f[kernel]}] = {std::stod(f[measured]), std::stod(f[predicted])};
  }
  return rows;
}

}  // namespace

TEST_CASE("warp calibration: CUDA lessons from their source, absolute time and the lessons' orderings") {
  if (std::system("command -v clang++ >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: no clang++ to compile the lessons");
    return;
  }
  auto rows = lesson_rows();
  REQUIRE(rows.size() == 25);
  double sum = 0;
  int within = 0;
  for (const auto& [key, row] : rows) {
    const double err = std::fabs(row.predicted / row.measured - 1);
    sum += err;
    within += err <= 0.20;
    MESSAGE(key.first << " " << key.second << ": measured " << row.measured * 1e6 << " us, predicted " << row.predicted * 1e6
                      << " us (" << 100 * (row.predicted / row.measured - 1) << " %)");
  }
  const double mape = sum / double(rows.size());
  CHECK(mape < 0.15);  // today 12.1 %
  CHECK(within >= 20);  // today 21 of 25
  auto t = [&](const char* group, const char* kernel) { return rows.at({group, kernel}).predicted; };
  // the lessons' orderings
  CHECK(t("reduction", "reduce_interleaved_divergent") > t("reduction", "reduce_interleaved_strided"));
  CHECK(t("reduction", "reduce_interleaved_strided") > t("reduction", "reduce_sequential"));
  CHECK(t("reduction", "reduce_sequential") > t("reduction", "reduce_first_add"));
  CHECK(t("reduction", "reduce_first_add") > t("reduction", "reduce_unrolled<256>"));
  CHECK(t("transpose", "transpose_naive") > 2 * t("transpose", "transpose_shared"));
  CHECK(t("transpose", "transpose_shared") > 2 * t("transpose", "transpose_padded"));
  CHECK(t("sgemm", "sgemm_naive") > t("sgemm", "sgemm_tiled"));
  CHECK(t("sgemm", "sgemm_tiled") > t("sgemm", "sgemm_regblock"));
  CHECK(t("histogram", "hist_global") > 10 * t("histogram", "hist_shared"));
  CHECK(t("histogram_one_bin", "hist_global") > 100 * t("histogram_one_bin", "hist_shared"));
  CHECK(t("divergence", "branch_lane") > 1.4 * t("divergence", "branch_warp"));
  CHECK(t("softmax", "softmax_shared") > t("softmax", "softmax_shuffle"));
  // the reduction lesson's speed-ups within the 25 %
  const auto& first = rows.at({"reduction", "reduce_interleaved_divergent"});
  for (const char* k : {"reduce_interleaved_strided", "reduce_sequential", "reduce_first_add", "reduce_unrolled<256>"}) {
    const auto& r = rows.at({"reduction", k});
    const double speedup_err = (first.predicted / r.predicted) / (first.measured / r.measured) - 1;
    CHECK_MESSAGE(std::fabs(speedup_err) < 0.25, k << ": speed-up error " << 100 * speedup_err << " %");
  }
}
