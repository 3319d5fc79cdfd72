// On a system run, --set of a system key changes the system file's value: h200x2 with 9 NVLink
// links per GPU instead of 18 has 9 × 26.5625 GB/s × 0.7755 = 185.4 GB/s per direction, now below
// the collective engine's 348 GB/s each way. all_reduce 1 GiB on 2 GPUs (ring or tree, Simple):
// 2^30 B / 185.4 GB/s + 18.2 µs (launch 3 µs pinned, base 8.4 µs, 2 steps × 3.4 µs) = 5.810 ms,
// busbw = algbw = 184.8 GB/s.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
// The two fitted parameters of h200x2.toml, pinned so the arithmetic above holds when they are refitted.
const char* const kPinned =
    " --set collective.launch_overhead=3us --set collective.channels=24 --set collective.channel_bandwidth=29GB/s";
}  // namespace

TEST_CASE("cli system: a system key in --set changes the system") {
  auto json = scratch_dir() / "nine.json";
  CliRun r = run_hwsim(std::string("--system h200x2") + kPinned + " -w collective:op=all_reduce,bytes=1GiB,ranks=2 --set scale_up.links=9 --quiet --json '" +
                       json.string() + "'");
  REQUIRE(r.exit_code == 0);
  double busbw = nlohmann::json::parse(read_text(json))["result"]["collective"]["busbw"].get<double>();
  const double link = 9 * 26.5625 * 0.7755;  // GB/s
  CHECK(busbw < link);
  CHECK(busbw == doctest::Approx(1073741824.0 / (1073741824.0 / (link * 1e9) + 18.2e-6) / 1e9).epsilon(0.002));
}
