// configs/systems/mi300x_x8.toml: 8 MI300X fully connected by one xGMI link per pair (7 per GPU,
// 64 GB/s each way). The system builds, an all_reduce runs on it, and no link carries more than
// its bandwidth allows.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli mi300x_x8: an 8-GPU all_reduce over Infinity Fabric runs within the links' bandwidth") {
  auto json = scratch_dir() / "ar.json";
  CliRun r = run_hwsim("--system mi300x_x8 -w collective:op=all_reduce,bytes=64MiB,ranks=8 --json '" + json.string() +
                       "'");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "infinity_fabric"));
  CHECK(contains(r.out, "8 of 8"));
  auto doc = nlohmann::json::parse(read_text(json));
  double busbw = doc["result"]["collective"]["busbw"].get<double>();  // GB/s
  CHECK(busbw > 10);
  CHECK(busbw <= 7 * 64.0);  // every link of a GPU busy both ways is the ceiling
  CHECK(doc["result"]["collective"]["seconds"].get<double>() >= 2.0 * 7 / 8 * 64 * 1024 * 1024 / (7 * 64e9));
}

TEST_CASE("cli mi300x_x8: tensor-parallel decode runs on 8 MI300X") {
  CliRun r = run_hwsim("--system mi300x_x8 -w decode_llama70b:tp=8 --quiet");
  CHECK(r.exit_code == 0);
}
