// Accuracy of the warp model on the teaching kernels' CUDA twins measured on an H100
// (data/measurements/h100_classroom.jsonl; scripts/measure/campaign/classroom.cu, timed as CUDA
// graph replays, so each launch finds its buffers in L2 as the previous one left them: the
// classroom kind runs with LaunchOptions::warm_l2; a kernel with atomics runs on all SMs). No
// classroom record fits a parameter: the graph launch, the L2's same-line atomic serialisation and
// queue, and the CTA slot turnover rest on device probes (scripts/measure/campaign/classroom_probe.cu),
// the branch delay on another (classroom_phases.cu), so all 52 records judge.
// The goals: every record within 20 %, the lessons' ratios within 15 %; the MAPE gate a
// little above today's figure (docs/calibration.md "Classroom kernels").
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <sstream>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {

// case_id -> (measured, predicted) seconds, from validate --csv (header names the columns).
std::map<std::string, std::pair<double, double>> classroom_rows() {
  auto csv = scratch_dir() / "classroom.csv";
  std::string records = std::string(HWSIM_SOURCE_DIR) + "/data/measurements/h100_classroom.jsonl";
  CliRun r = run_hwsim("validate '" + records + "' --chip h100 --kind classroom --csv '" + csv.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto lines = lines_of(read_text(csv));
  REQUIRE(lines.size() > 1);
  auto split = [](const std::string& line) {  // fields hold no quoted commas in these columns' prefix
    std::vector<std::string> out;
    std::stringstream s(line);
    for (std::string f; std::getline(s, f, ',');) out.push_back(f);
    return out;
  };
  auto header = split(lines[0]);
  auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    FAIL("no column " << name);
    return std::size_t(0);
  };
  const std::size_t id = col("case_id"), measured = col("measured_s"), predicted = col("predicted_s");
  std::map<std::string, std::pair<double, double>> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto f = split(lines[i]);
    rows[f[id]] = {std::stod(f[measured]), std::stod(f[predicted])};
  }
  return rows;
}

double ratio_error(const std::pair<double, double>& a, const std::pair<double, double>& b) {
  return (a.second / b.second) / (a.first / b.first) - 1;
}

}  // namespace

TEST_CASE("warp calibration: classroom kernels, absolute time and the lessons' ratios") {
  auto rows = classroom_rows();
  REQUIRE(rows.size() == 52);
  double sum = 0;
  int n = 0, within_20 = 0;
  for (const auto& [id, t] : rows) {
    double err = std::abs(t.second / t.first - 1);
    sum += err, ++n, within_20 += err <= 0.20;
  }
  MESSAGE("MAPE " << 100 * sum / n << " %, " << within_20 << " of " << n << " within 20 %");
  CHECK(100 * sum / n < 5.5);   // 4.95 % today (7.5 % before the .hwk matmuls and softmax took ptxas's order)
  CHECK(within_20 == n);
  // naive ÷ tiled (16×16) as n grows
  for (const char* size : {"g16/b256/n64", "g64/b256/n128", "g256/b256/n256", "g1024/b256/n512", "g4096/b256/n1024",
                           "g16384/b256/n2048"}) {
    auto naive = rows.at(std::string("classroom/matmul_naive/") + size + "/c0");
    auto tiled = rows.at(std::string("classroom/matmul_tiled/") + size + "/c0");
    INFO(size);
    CHECK(std::abs(ratio_error(naive, tiled)) < 0.15);
  }
  // vector_add over block sizes (2^20, 2^24 and 2^26 elements): each block size's time against block 256's
  for (std::uint64_t n : {1u << 20, 1u << 24, 1u << 26}) {
    auto id = [&](std::uint64_t block) {
      return "classroom/vector_add/g" + std::to_string(n / block) + "/b" + std::to_string(block) + "/n" + std::to_string(n) + "/c0";
    };
    auto base = rows.at(id(256));
    for (std::uint64_t b : {32, 64, 128, 512, 1024}) {
      INFO(id(b));
      CHECK(std::abs(ratio_error(rows.at(id(b)), base)) < 0.15);
    }
  }
  // reduction_shuffle over block sizes (2^24 elements): the atomics' line queues make 512 and 1024
  // threads slower than 256 (they were 27 % and 46 % off before the queues were modelled)
  auto red = rows.at("classroom/reduction_shuffle/g65536/b256/n16777216/c0");
  for (const char* b : {"g524288/b32", "g262144/b64", "g131072/b128", "g32768/b512", "g16384/b1024"}) {
    INFO(b);
    CHECK(std::abs(ratio_error(rows.at(std::string("classroom/reduction_shuffle/") + b + "/n16777216/c0"), red)) < 0.15);
  }
  // softmax rows that outgrow the L2: the 2 SMs simulated meet the whole grid's L2 pressure (a
  // row is one block's; they were -51 % and -42 % when the subset had the whole L2 to itself)
  for (const char* id : {"softmax/g4096/b32/n0/c4096", "softmax/g1024/b32/n0/c32768"}) {
    auto t = rows.at(std::string("classroom/") + id);
    INFO(id);
    CHECK(std::abs(t.second / t.first - 1) < 0.20);
  }
  // the small kernels a lesson starts with: launch-bound, within 20 % (softmax and tiled matmuls
  // were 25-42 % slow with a 1.58 us graph launch)
  for (const char* id : {"softmax/g64/b32/n0/c100", "softmax/g4096/b32/n0/c128", "softmax/g132/b32/n0/c128",
                         "matmul_tiled/g16/b256/n64/c0", "matmul_tiled/g64/b256/n128/c0",
                         "matmul_tiled/g256/b256/n256/c0", "reduction_shuffle/g256/b256/n65536/c0"}) {
    auto t = rows.at(std::string("classroom/") + id);
    INFO(id);
    CHECK(std::abs(t.second / t.first - 1) < 0.20);
  }
}
