// Four sub-partitions each issue at most one instruction per cycle; GTO and LRR both run a
// kernel to the same values, and latency is hidden by more warps (IPC rises with occupancy).
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("scheduler: issue limits and latency hiding") {
  auto one = test::run_file("divergence", 1, 32, {{"paths", "1"}, {"work", "64"}});
  auto many = test::run_file("divergence", 1, 512, {{"paths", "1"}, {"work", "64"}});
  double ipc_one = double(one->stats.warp_instructions) / double(one->stats.cycles);
  double ipc_many = double(many->stats.warp_instructions) / double(many->stats.cycles);
  CHECK(ipc_one <= 1.0);          // one warp: one sub-partition
  CHECK(ipc_many <= 4.0);
  CHECK(ipc_many > 2.5 * ipc_one);
  WarpParams gto = test::h100();
  gto.gto = true;
  LaunchOptions o;
  o.args.grid = 2;
  o.args.block = 256;
  auto a = simulate_kernel(gto, load_kernel("workloads/kernels/reduction_tree.hwk"), o);
  WarpParams lrr = test::h100();
  lrr.gto = false;
  auto b = simulate_kernel(lrr, load_kernel("workloads/kernels/reduction_tree.hwk"), o);
  CHECK(test::values(*a, "out") == test::values(*b, "out"));
  CHECK(a->stats.warp_instructions == b->stats.warp_instructions);
}
