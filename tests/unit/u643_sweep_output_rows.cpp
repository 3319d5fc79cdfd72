// Sweep output: CSV/JSONL rows, quoting, the format by extension, reading rows back for --resume.
#include <doctest/doctest.h>

#include <fstream>

#include "app/sweep/sweep_output.h"
#include "app/sweep/sweep_row.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;

static SweepSpec spec() {
  SweepSpec s;
  s.chip = "h100";
  s.workload = "gemm:M=64,N=64,K=64";
  s.axes = {parse_vary("workload.M=64,128")};
  return s;
}

TEST_CASE("sweep rows: CSV header and rows, errors quoted, metrics by column") {
  SweepSpec s = spec();
  auto points = sweep_points(s);
  auto columns = sweep_columns(s);
  CHECK(sweep_header(SweepFormat::csv, columns).rfind("index,workload.M,status,seconds,", 0) == 0);
  nlohmann::ordered_json metrics = {{"seconds", 0.5}, {"bound", "memory"}};
  std::string ok = sweep_line(SweepFormat::csv, columns, sweep_row(s, points[0], metrics, ""));
  CHECK(ok.rfind("0,64,ok,0.5,", 0) == 0);
  CHECK(ok.find(",memory,") != std::string::npos);
  std::string bad = sweep_line(SweepFormat::csv, columns, sweep_row(s, points[1], {}, "does not fit, \"80 GB\""));
  CHECK(bad.rfind("1,128,error,", 0) == 0);
  auto cells = split_csv_line(bad.substr(0, bad.size() - 1));
  REQUIRE(cells.size() == columns.size());
  CHECK(cells.back() == "does not fit, \"80 GB\"");
  std::string jsonl = sweep_line(SweepFormat::jsonl, columns, sweep_row(s, points[0], metrics, ""));
  CHECK(jsonl == "{\"index\":0,\"workload.M\":\"64\",\"status\":\"ok\",\"seconds\":0.5,\"bound\":\"memory\"}\n");
}

TEST_CASE("sweep output: the format comes from the extension") {
  CHECK(sweep_format("a.csv") == SweepFormat::csv);
  CHECK(sweep_format("-") == SweepFormat::csv);
  CHECK(sweep_format("a.jsonl") == SweepFormat::jsonl);
  CHECK_THROWS_WITH_AS(sweep_format("a.xlsx"), doctest::Contains("FILE.csv or FILE.jsonl"), UserError);
}

TEST_CASE("sweep output: --resume reads rows back and refuses another sweep's file") {
  SweepSpec s = spec();
  auto points = sweep_points(s);
  auto columns = sweep_columns(s);
  auto path = (hwsim::test::scratch_dir() / "rows.csv").string();
  {
    std::ofstream out(path);
    out << sweep_header(SweepFormat::csv, columns)
        << sweep_line(SweepFormat::csv, columns, sweep_row(s, points[1], {{"seconds", 1.0}}, ""));
  }
  auto done = read_done_rows(path, SweepFormat::csv, columns, s, points);
  REQUIRE(done.size() == 1);
  CHECK(done.count(1) == 1);
  SweepSpec other = s;
  other.axes = {parse_vary("workload.M=64,256")};
  CHECK_THROWS_WITH_AS(read_done_rows(path, SweepFormat::csv, columns, other, sweep_points(other)),
                       doctest::Contains("rows.csv:2: --resume: point 1 has other values"), UserError);
  CHECK(read_done_rows(path + ".none", SweepFormat::csv, columns, s, points).empty());
}
