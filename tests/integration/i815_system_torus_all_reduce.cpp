// All-reduce of 1 GiB over the whole 16x16 torus of tpu_v5e_16x16 (links 50 GB/s × 0.9 = 45 GB/s
// per direction, 1 µs a hop, no other latency): auto picks the torus algorithm. The data goes in
// two halves, one per dimension, at once, so each chip sends both ways along both dimensions:
// 15 rounds of (S/2)/32 = S/64 and 15 of (S/32)/32 = S/1024 per transfer, twice (reduce-scatter,
// all-gather), each link direction carrying one transfer at 45 GB/s, plus 60 rounds × 1 µs:
//   t = 60 µs + 30 × S × (1/64 + 1/1024) / 45e9 = 11.94 ms,
// busbw = S/t × 2·255/256 ≈ 179 GB/s: all four links of a chip, both directions, nearly reached.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: all_reduce over the 16x16 torus uses both directions of every link") {
  auto json = scratch_dir() / "torus.json";
  CliRun r = run_hwsim("--system tpu_v5e_16x16 -w collective:op=all_reduce,bytes=1GiB,ranks=256 --quiet --json '" +
                       json.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& c = doc["result"]["collective"];
  const double S = 1073741824.0;
  const double t = 60e-6 + 30 * S * (1.0 / 64 + 1.0 / 1024) / 45e9;
  CHECK(contains(c["algorithm"].get<std::string>(), "torus Simple"));
  CHECK(c["seconds"].get<double>() == doctest::Approx(t).epsilon(0.002));
  CHECK(c["busbw"].get<double>() == doctest::Approx(S / t * 2 * 255 / 256 / 1e9).epsilon(0.002));
  CHECK(c["busbw"].get<double>() < 180);
}
