// Whole-kernel figures of a warp-model run (kernel_metrics.h): bytes per level and their share of
// the peak, FLOPs and the roofline, the L2 hit rate as Nsight Compute counts it, energy, and the
// scaling of a --sample-sms run to the whole kernel. Expected values by hand from the kernel's
// arguments (bytes it must move, FLOPs it must do) and the chip file's peaks.
#include <doctest/doctest.h>

#include "models/gpu/warp/kernel_metrics.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

namespace {

const LevelTraffic& level(const KernelMetrics& m, const std::string& name) {
  for (const auto& t : m.traffic)
    if (t.level == name) return t;
  FAIL("no level " << name);
  return m.traffic.front();
}

std::unique_ptr<KernelRun> stream_read(std::int64_t float4s, int sample_sms) {
  LaunchOptions o;
  o.args.grid = 132 * 4;
  o.args.block = 256;
  o.args.args = {{"n", std::to_string(float4s)}, {"a", std::to_string(float4s * 4) + ":zeros"},
                 {"b", std::to_string(float4s * 4) + ":zeros"}};
  o.sample_sms = sample_sms;
  return simulate_kernel(test::h100(), load_kernel("workloads/kernels/stream_read.hwk"), o);
}

}  // namespace

TEST_CASE("warp metrics: vector_add moves 12 bytes and does 1 FLOP per element, memory-bound") {
  const std::int64_t n = 132 * 256 * 4;  // threads = elements
  auto r = test::run_file("vector_add", 132 * 4, 256);
  KernelMetrics m = kernel_metrics(*r);
  CHECK_FALSE(m.sampled);
  CHECK(m.scale == 1.0);
  CHECK(m.flops == doctest::Approx(double(n)));  // one f32 add per element
  const double dram = level(m, "dram").bytes;
  CHECK(dram == doctest::Approx(12.0 * double(n)).epsilon(0.02));  // a, b read, c written, 4 B each
  CHECK(level(m, "l1").bytes == doctest::Approx(12.0 * double(n)).epsilon(0.02));  // every sector asked for once
  const double seconds = double(r->stats.cycles) / r->clock_hz;
  CHECK(m.kernel_seconds == doctest::Approx(seconds));
  CHECK(level(m, "dram").bandwidth == doctest::Approx(dram / seconds));
  CHECK(level(m, "dram").peak == doctest::Approx(3.35e12));  // configs/h100.toml memory.hbm.bandwidth
  CHECK(level(m, "dram").percent_of_peak == doctest::Approx(100 * dram / seconds / 3.35e12));
  CHECK(m.arithmetic_intensity == doctest::Approx(1.0 / 12).epsilon(0.02));
  CHECK(m.bound == "memory");
  // roof at this intensity: intensity × DRAM peak, far below the FP32 peak (256 FLOP/clk × 132 SMs × 1.98 GHz)
  CHECK(m.peak_flop_rate == doctest::Approx(256.0 * 132 * 1.98e9));
  CHECK(m.ridge_point == doctest::Approx(256.0 * 132 * 1.98e9 / 3.35e12));
  CHECK(m.roof == doctest::Approx(m.arithmetic_intensity * 3.35e12));
  CHECK(m.percent_of_roof == doctest::Approx(100 * m.flop_rate / m.roof));
  // energy: at least the idle power over the kernel's time (configs/h100.toml power.idle 74 W)
  CHECK(m.energy > 74.0 * r->seconds);
  CHECK(m.average_power == doctest::Approx(m.energy / r->seconds));
}

TEST_CASE("warp metrics: a pure read stream's L2 hit rate is about 0 as Nsight Compute counts it") {
  auto r = stream_read(1 << 20, 0);  // 16 MiB, every byte read once from DRAM
  KernelMetrics m = kernel_metrics(*r);
  CHECK(level(m, "dram").bytes == doctest::Approx(16.0 * (1 << 20)).epsilon(0.02));
  CHECK(m.l2_store_sectors == 0);
  CHECK(m.l2_load_sectors == doctest::Approx(16.0 * (1 << 20) / 32).epsilon(0.02));
  CHECK(m.l2_load_hit_rate < 0.02);  // the sector fetched with its neighbour is not a hit
  CHECK(m.l2_hit_rate < 0.02);
}

TEST_CASE("warp metrics: --sample-sms scales the sampled counts to the whole kernel and says so") {
  const std::int64_t float4s = 4 << 20;  // 64 MiB
  auto r = stream_read(float4s, 2);
  KernelMetrics m = kernel_metrics(*r);
  REQUIRE(m.sampled);
  CHECK(r->stats.sms_simulated == 2);
  CHECK(m.scale == doctest::Approx(double(r->grid) / double(r->stats.ctas_simulated)));
  CHECK(m.scale > 50);  // 528 blocks, 2 of 132 SMs' share simulated
  // the whole kernel reads 64 MiB, whatever share was simulated
  CHECK(level(m, "dram").bytes == doctest::Approx(64.0 * (1 << 20)).epsilon(0.03));
  CHECK(m.warp_instructions == doctest::Approx(double(r->stats.warp_instructions) * m.scale));
}
