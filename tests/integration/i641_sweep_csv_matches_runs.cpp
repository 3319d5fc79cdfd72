// hwsim sweep: one row per point in point order; each row's numbers are those of the same run
// made alone (bit for bit); --jobs does not change the output.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/sweep/sweep_output.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

static const std::string kSweep =
    "sweep --chip h100 --workload gemm:M=256,N=2048,K=2048,dtype=bf16 "
    "--vary memory.hbm.bandwidth=1TB/s..2TB/s:2 --vary workload.M=64,128";

TEST_CASE("sweep: a CSV row per point, in order, equal to the single runs") {
  auto out = (scratch_dir() / "s.csv").string();
  CliRun r = run_hwsim(kSweep + " --jobs 2 --out " + out);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  auto lines = lines_of(read_text(out));
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].rfind("index,memory.hbm.bandwidth,workload.M,status,seconds,", 0) == 0);
  CHECK(lines[1].rfind("0,1 TB/s,64,ok,", 0) == 0);
  CHECK(lines[4].rfind("3,2 TB/s,128,ok,", 0) == 0);
  CliRun alone = run_hwsim("--chip h100 --workload gemm:M=128,N=2048,K=2048,dtype=bf16 "
                           "--set 'memory.hbm.bandwidth=2 TB/s' -q --json -");
  REQUIRE(alone.exit_code == 0);
  auto doc = nlohmann::json::parse(alone.out);
  auto cells = hwsim::split_csv_line(lines[4]);
  CHECK(cells[4] == doc["result"]["seconds"].dump());
}

TEST_CASE("sweep: --jobs 1 and --jobs 2 write the same file, JSONL by extension") {
  auto one = (scratch_dir() / "j1.jsonl").string(), two = (scratch_dir() / "j2.jsonl").string();
  REQUIRE(run_hwsim(kSweep + " -j 1 -o " + one).exit_code == 0);
  REQUIRE(run_hwsim(kSweep + " -j 2 -o " + two).exit_code == 0);
  CHECK(read_text(one) == read_text(two));
  auto rows = lines_of(read_text(one));
  REQUIRE(rows.size() == 4);
  auto row = nlohmann::json::parse(rows[2]);
  CHECK(row["index"] == 2);
  CHECK(row["memory.hbm.bandwidth"] == "2 TB/s");
  CHECK(row["bound"].is_string());
}
