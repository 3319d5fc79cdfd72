// Warp-model speed: simulated warp instructions per second of host time (one core) and peak
// memory, on shipped kernels at calibration sizes (a subset of SMs, see warp_measurements.cpp).
// Prints figures; never fails on speed.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "models/gpu/warp/kernel_launch.h"
#include "models/gpu/warp/parser.h"
#include "sim/config/config.h"

using namespace hwsim;
using namespace hwsim::warp;

int main() {
  auto params = WarpParams::from_config(load_config("configs/h100.toml", {"gpu.core.model=warp"}));
  struct Case {
    const char* kernel;
    std::int64_t grid, block;
    std::map<std::string, std::string> args;
    int sms;
  } cases[] = {
      {"bank_conflict", 528, 512, {{"stride", "1"}, {"iters", "1024"}}, 1},
      {"bank_conflict", 528, 512, {{"stride", "32"}, {"iters", "1024"}}, 1},
      {"divergence", 1056, 256, {{"paths", "8"}, {"work", "256"}}, 1},
      {"stream_copy", 132 * 8, 256, {}, 1},
      {"matmul_tiled", 64, 256, {{"n", "128"}}, 0},
  };
  double total_instr = 0, total_s = 0;
  for (const auto& c : cases) {
    LaunchOptions o;
    o.args.grid = c.grid;
    o.args.block = c.block;
    o.args.args = c.args;
    o.sample_sms = c.sms;
    auto prog = load_kernel(std::string("workloads/kernels/") + c.kernel + ".hwk");
    auto t0 = std::chrono::steady_clock::now();
    auto run = simulate_kernel(params, prog, o);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double wi = double(run->stats.warp_instructions);
    total_instr += wi;
    total_s += s;
    std::printf("%-14s grid %6lld block %4lld: %10.0f warp instr, %9lld cycles, %.3f s host, %.2f M warp-instr/s\n",
                c.kernel, (long long)c.grid, (long long)c.block, wi, (long long)run->stats.cycles, s, wi / s / 1e6);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("total: %.0f warp instructions in %.3f s = %.2f M warp-instr/s; peak RSS %.1f MiB\n", total_instr, total_s,
              total_instr / total_s / 1e6, double(ru.ru_maxrss) / 1024.0);
  return 0;
}
