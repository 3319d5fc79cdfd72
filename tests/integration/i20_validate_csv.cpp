// `hwsim validate` on a small measurement file: per-kind summary, skipped kinds counted, and a CSV
// with kind, measured_s, predicted_s and each record's own fields.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.push_back(cell), cell.clear();
    else cell += c;
  }
  cells.push_back(cell);
  return cells;
}
}  // namespace

TEST_CASE("cli: validate --kind gemm --csv writes one row per gemm record") {
  auto csv = scratch_dir() / "rows.csv";
  CliRun r = run_hwsim("validate tests/fixtures/validate/small_gemm.jsonl --chip configs/h100.toml --kind gemm --csv '" +
                       csv.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "gemm"));
  CHECK(contains(r.out, "MAPE"));
  auto lines = lines_of(read_text(csv));
  REQUIRE(lines.size() == 1 + 3);  // header + the fixture's 3 gemm records
  auto header = split_csv_line(lines[0]);
  for (const char* column : {"kind", "measured_s", "predicted_s", "M", "N", "K", "dtype", "label", "device"})
    CHECK_MESSAGE(std::find(header.begin(), header.end(), column) != header.end(), column);
  auto column = [&](const std::string& name) {
    return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  // Rows keep the file's order; the measured time is the record's own.
  auto first = split_csv_line(lines[1]);
  REQUIRE(first.size() == header.size());
  CHECK(first[column("kind")] == "gemm");
  CHECK(std::stod(first[column("measured_s")]) == doctest::Approx(3e-6));
  CHECK(std::stod(first[column("predicted_s")]) > 0);
  CHECK(first[column("M")] == "256");
  auto third = split_csv_line(lines[3]);
  CHECK(third[column("dtype")] == "fp16");
  CHECK(third[column("label")] == "tall");
}

TEST_CASE("cli: validate skips and counts records of kinds it does not model") {
  CliRun r = run_hwsim("validate tests/fixtures/validate/small_gemm.jsonl --chip h100");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "warp_shuffle_party"));
  CHECK(contains(r.out, "skipped"));
}

TEST_CASE("cli: validate --max-mape exits 6 when the error exceeds it") {
  // No model predicts these records within 0.001 %.
  CliRun r = run_hwsim("validate tests/fixtures/validate/small_gemm.jsonl --chip h100 --kind gemm --max-mape 0.001");
  CHECK(r.exit_code == 6);
}
