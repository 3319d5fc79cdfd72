// A subset of the SMs (--sample-sms) meets the whole grid's L2 pressure: rows private to each
// block stand for the rows of the blocks not simulated, data every block reads is held once
// (kernel_launch.cpp prepare_memory, MemorySystem::weigh_own_lines). A warm L2 whose buffers
// outgrow a partition is what a simulated previous launch left, its writes discarded.
#include <doctest/doctest.h>

#include <cmath>

#include "ops/device.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {
// A 16-SM H100 with a small L2 (two partitions): full grids stay quick to simulate.
WarpParams small_chip(const std::string& l2) {
  return WarpParams::from_config(hwsim::load_chip("configs/h100.toml", {"gpu.core.model=warp", "gpu.sm_count=16", "memory.l2.size=" + l2}));
}

std::unique_ptr<KernelRun> run(const WarpParams& p, const std::string& kernel, std::int64_t grid, std::int64_t block,
                               std::map<std::string, std::string> args, int sample_sms, bool warm) {
  LaunchOptions o;
  o.args.grid = grid;
  o.args.block = block;
  o.args.args = std::move(args);
  o.sample_sms = sample_sms;
  o.warm_l2 = warm;
  return simulate_kernel(p, load_kernel("workloads/kernels/" + kernel + ".hwk"), o);
}

// Share of the load sectors that reached L2 and hit there.
double l2_load_hit_rate(const KernelRun& r) {
  const MemoryStats& m = r.memory_stats;
  return double(m.l2_hit_sectors) / double(m.sectors - m.store_sectors - m.l1_hit_sectors);
}
}  // namespace

TEST_CASE("warp: a subset of SMs sees the whole grid's L2 pressure from rows private to each block") {
  // 256 rows of 4096 floats in and out: 8 MiB, twice the L2; each row is one block's
  const WarpParams p = small_chip("4 MiB");
  const std::map<std::string, std::string> args{{"cols", "4096"}};
  auto whole = run(p, "softmax", 256, 32, args, 0, true);
  auto subset = run(p, "softmax", 256, 32, args, 2, true);
  REQUIRE(subset->stats.sms_simulated == 2);
  const double hit_whole = l2_load_hit_rate(*whole), hit_subset = l2_load_hit_rate(*subset);
  INFO("L2 load hit rate: whole grid " << hit_whole << ", subset " << hit_subset);
  CHECK(hit_whole < 0.75);  // x's rows are gone from L2 before the second pass reads them again
  CHECK(std::abs(hit_subset - hit_whole) < 0.1);
  CHECK(double(subset->stats.cycles) == doctest::Approx(double(whole->stats.cycles)).epsilon(0.15));
}

TEST_CASE("warp: data every block reads is held once for a subset of SMs") {
  // naive matmul n=256: B (256 KiB) is read by every block, A's rows by one block each: 768 KiB
  // of buffers over a 512 KiB partition, but the working set at a time (B and a few rows) fits
  const WarpParams p = small_chip("1 MiB");
  const std::map<std::string, std::string> args{{"n", "256"}};
  auto whole = run(p, "matmul_naive", 256, 256, args, 0, true);
  auto subset = run(p, "matmul_naive", 256, 256, args, 2, true);
  INFO("L2 load hit rate: whole grid " << l2_load_hit_rate(*whole) << ", subset " << l2_load_hit_rate(*subset));
  CHECK(l2_load_hit_rate(*whole) > 0.9);
  CHECK(l2_load_hit_rate(*subset) > 0.85);  // fewer readers of each line in a subset: first touches weigh more
  CHECK(double(subset->stats.cycles) == doctest::Approx(double(whole->stats.cycles)).epsilon(0.15));
}

TEST_CASE("warp: a warm L2 past one partition comes from a simulated previous launch, its writes discarded") {
  // reduction_shuffle adds into out[block] with atomics: a previous launch that kept its writes
  // would double every sum. 8192 blocks of 256 threads: 8 MiB of input, twice the L2.
  const WarpParams p = small_chip("4 MiB");
  auto cold = run(p, "reduction_shuffle", 8192, 256, {}, 0, false);
  auto warm = run(p, "reduction_shuffle", 8192, 256, {}, 0, true);
  CHECK(test::values(*warm, "out") == test::values(*cold, "out"));
  CHECK(test::values(*warm, "out")[1] == 256.0 * 256 + 255.0 * 256 / 2);  // block 1 sums 256..511
}
