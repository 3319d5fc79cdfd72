// A launch tells its front end each block that retires (LaunchOptions::progress: the CLI's progress
// bar on a terminal), counting up to the blocks it simulates, and only for the measured launch.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp launch: progress counts every simulated block once, up to the total") {
  LaunchOptions o;
  o.args.grid = 40;
  o.args.block = 128;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  o.progress = [&](std::uint64_t done, std::uint64_t total) { calls.emplace_back(done, total); };
  auto r = simulate_kernel(test::h100(), load_kernel("workloads/kernels/vector_add.hwk"), o);
  REQUIRE(calls.size() == 40);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    CHECK(calls[i].first == i + 1);
    CHECK(calls[i].second == 40);
  }
  // a subset run counts the blocks it simulates, not the grid
  calls.clear();
  o.args.grid = 400;
  o.sample_sms = 4;
  o.warm_l2 = true;  // a previous launch runs first: it tells nothing
  auto s = simulate_kernel(test::h100(), load_kernel("workloads/kernels/vector_add.hwk"), o);
  REQUIRE(!calls.empty());
  CHECK(calls.back().first == s->stats.ctas_simulated);
  CHECK(calls.back().second == s->stats.ctas_simulated);
  CHECK(s->stats.ctas_simulated < 400);
}
