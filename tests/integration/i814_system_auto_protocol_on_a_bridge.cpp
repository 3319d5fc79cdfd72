// proto=auto must pick the protocol that runs fastest. On rtx4090x2_pcie an all_reduce of 1 GiB
// is bound by the staged host bridge (83 GB/s, crossed twice per byte; i811): with Simple both
// directions get 83 / 4 = 20.75 GB/s, 2 rounds of S/2: 2^30 / 20.75e9 = 51.75 ms + 22.8 µs of
// latency. LL128 saves 0.8 µs of latency (14 + 2 × 2.5 µs instead of 8.4 + 2 × 5.7 µs) but moves
// 128 bytes per 120 (efficiency 0.9375) through the bridge too: 55.2 ms. auto must not be slower
// than Simple asked by name.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
double seconds(const std::string& proto, const std::string& file) {
  auto json = scratch_dir() / file;
  CliRun r = run_hwsim("--system rtx4090x2_pcie --set collective.launch_overhead=3us -w collective:op=all_reduce,bytes=1GiB,ranks=2,proto=" + proto +
                       " --quiet --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(read_text(json))["result"]["collective"]["seconds"].get<double>();
}
}  // namespace

TEST_CASE("cli system: proto=auto on a PCIe bridge is as fast as Simple") {
  const double S = 1073741824.0;
  double simple = seconds("Simple", "simple.json");
  double auto_choice = seconds("auto", "auto.json");
  CHECK(simple == doctest::Approx(S / 20.75e9 + 22.8e-6).epsilon(0.002));
  CHECK(auto_choice <= simple * (1 + 1e-9));
}
