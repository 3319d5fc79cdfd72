// serve dataset= (workloads/serve/request_files.h): lengths read from a file (CSV with the
// columns in any order, extra columns ignored, arrival optional; or JSONL), sampled without
// replacement by a seeded shuffle as benchmark_serving samples a dataset, arriving at rate=; the
// shipped Azure conversation trace reads as a trace and as a dataset.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>

#include "sim/error.h"
#include "tests/fixtures/test_support.h"
#include "workloads/serve/request_files.h"
#include "workloads/spec.h"

using namespace hwsim;
using hwsim::test::scratch_dir;

namespace {
std::vector<ServeRequest> pairs(int n) {
  std::vector<ServeRequest> p;
  for (int i = 0; i < n; ++i) p.push_back({i, 0, 100 + i, 10 + i});
  return p;
}
}  // namespace

TEST_CASE("serve dataset: a sample takes each pair once per round, in a seeded order, at Poisson arrivals") {
  auto a = sample_dataset(pairs(10), 25, 4.0, 7), b = sample_dataset(pairs(10), 25, 4.0, 7);
  auto c = sample_dataset(pairs(10), 25, 4.0, 8);
  REQUIRE(a.size() == 25);
  std::map<std::int64_t, int> first_round, second_round;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].id == std::int64_t(i));
    CHECK((a[i].prompt == b[i].prompt && a[i].output == b[i].output && a[i].arrival == b[i].arrival));
    CHECK(a[i].output == a[i].prompt - 90);  // pairs stay pairs
    if (i > 0) CHECK(a[i].arrival > a[i - 1].arrival);
    (i < 10 ? first_round : second_round)[a[i].prompt] += 1;
  }
  CHECK(first_round.size() == 10);   // without replacement: all ten, once each
  CHECK(second_round.size() == 10);  // a fresh shuffle for the next ten
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i) differs = differs || a[i].prompt != c[i].prompt;
  CHECK(differs);
  for (const auto& r : sample_dataset(pairs(3), 3, std::numeric_limits<double>::infinity(), 0)) CHECK(r.arrival == 0);
}

TEST_CASE("serve dataset: CSV columns in any order with extra ones, JSONL, and the shipped trace") {
  auto dir = scratch_dir();
  {
    std::ofstream f(dir / "d.csv");
    f << "# lengths\nconversation,output_tokens,prompt_tokens\nx,5,50\ny,7,70\n";
  }
  auto d = read_serve_dataset((dir / "d.csv").string());
  REQUIRE(d.size() == 2);
  CHECK((d[0].prompt == 50 && d[0].output == 5 && d[1].prompt == 70 && d[1].output == 7));
  {
    std::ofstream f(dir / "d.jsonl");
    f << "{\"prompt_tokens\": 12, \"output_tokens\": 3}\n";
  }
  CHECK(read_serve_dataset((dir / "d.jsonl").string()).front().prompt == 12);
  // A trace needs its arrivals; a dataset does not.
  CHECK_THROWS_AS(read_serve_trace((dir / "d.csv").string()), UserError);
  auto trace = read_serve_trace(std::string(HWSIM_SOURCE_DIR) + "/data/traces/azure_conv_2023.csv");
  auto dataset = read_serve_dataset(std::string(HWSIM_SOURCE_DIR) + "/data/traces/azure_conv_2023.csv");
  REQUIRE(trace.size() == 5000);
  REQUIRE(dataset.size() == 5000);
  CHECK((trace[1].arrival > 4 && trace[1].prompt == 396 && trace[1].output == 109));
  CHECK((dataset[1].arrival == 0 && dataset[1].prompt == 396));
}

TEST_CASE("serve dataset: the workload samples it at its rate; lengths from both places are refused") {
  std::string file = std::string(HWSIM_SOURCE_DIR) + "/data/traces/azure_conv_2023.csv";
  auto s = parse_serve_spec(WorkloadSpec::parse("serve:model=llama3_8b,dataset=" + file + ",requests=40,rate=5,seed=2"));
  REQUIRE(s.requests.size() == 40);
  CHECK(s.requests.back().arrival > 1);
  CHECK_THROWS_WITH_AS(parse_serve_spec(WorkloadSpec::parse("serve:model=llama3_8b,dataset=" + file + ",prompt=64")),
                       doctest::Contains("prompt: comes from the dataset file"), UserError);
  CHECK_THROWS_WITH_AS(parse_serve_spec(WorkloadSpec::parse("serve:model=llama3_8b,dataset=" + file + ",trace=" + file)),
                       doctest::Contains("not both"), UserError);
}
