// An all_reduce of 1 GiB on h200x2 (two H200, 18 NVLink4 links each through NVSwitch), by hand
// from configs/systems/h200x2.toml (its fitted launch_overhead and channel_bandwidth pinned to 3 µs
// and 29 GB/s):
// - links: 18 × 26.5625 GB/s × 0.7755 (link efficiency) = 370.8 GB/s per direction per GPU;
// - collective engine: 24 channels × 29 GB/s = 696 GB/s per GPU, each byte sent and each byte
//   received costing one: a GPU that sends and receives at once moves 696 / 2 = 348 GB/s each way,
//   below the links, so the engine is the limit;
// - ring (or tree: the same at 2 ranks), Simple: 2 rounds of S/2 each way; nccl-tests' busbw =
//   algbw × 2(n-1)/n = algbw at n = 2, so busbw ≤ 348 GB/s;
// - latency: launch 3 µs + Simple base 8.4 µs + 2 steps × 3.4 µs = 18.2 µs;
//   time = 2^30 B / 348 GB/s + 18.2 µs = 3.0854 + 0.0182 ms → busbw = 2^30 / 3.1037 ms = 345.96 GB/s.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
// The two fitted parameters of h200x2.toml, pinned so the arithmetic above holds when they are refitted.
const char* const kPinned =
    " --set collective.launch_overhead=3us --set collective.channels=24 --set collective.channel_bandwidth=29GB/s";
}  // namespace

TEST_CASE("cli system: all_reduce 1GiB on h200x2 reaches the hand-computed busbw, below link and engine limits") {
  auto json = scratch_dir() / "busbw.json";
  CliRun r = run_hwsim(std::string("--system h200x2") + kPinned + " -w collective:op=all_reduce,bytes=1GiB,ranks=2 --quiet --json '" +
                       json.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& c = doc["result"]["collective"];
  const double S = 1073741824.0;
  const double link_limit = 18 * 26.5625 * 0.7755;  // GB/s, 370.8
  const double engine_limit = 24 * 29.0 / 2;        // GB/s, 348
  const double seconds = S / 348e9 + 18.2e-6;
  double busbw = c["busbw"].get<double>();  // GB/s
  CHECK(c["op"] == "all_reduce");
  CHECK(c["ranks"].get<double>() == 2);
  CHECK(c["bytes"].get<double>() == S);
  CHECK(busbw < link_limit);
  CHECK(busbw < engine_limit);
  CHECK(busbw == doctest::Approx(S / seconds / 1e9).epsilon(0.002));
  CHECK(c["seconds"].get<double>() == doctest::Approx(seconds).epsilon(0.002));
  CHECK(c["algbw"].get<double>() == doctest::Approx(busbw));  // factor 2(n-1)/n = 1 at n = 2
  CHECK(contains(c["algorithm"].get<std::string>(), "Simple"));
  // Every byte crosses 2 link directions (GPU → switch → GPU): 2 rounds × 2 GPUs × S/2 × 2 hops.
  CHECK(c["link_bytes"].get<double>() == doctest::Approx(4 * S));
  CHECK(doc["system"]["name"] == "h200x2");
}
