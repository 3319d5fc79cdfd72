// Warp-model speed: simulated warp instructions per second of host CPU time (one core, so a busy
// machine does not skew it) and peak memory. Three parts:
//   the mix: shipped kernels at calibration sizes (a subset of SMs, see app/validate/kernel_measurements.cpp);
//            goal >= 5 M warp-instructions/s over the mix;
//   scaling: the same per-warp work with 4 ... 64 resident warps per SM; the rate must not fall
//            as warps grow (event-driven issue looks only at warps that can issue);
//   teaching sizes: naive and tiled matmuls of 256 and 1024 on the whole chip.
// Each case runs three times and the fastest counts (a shared machine's noise only slows a run).
// Prints figures; never fails on speed. `bench_warp mix|scaling|teaching` runs one part.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <ctime>
#include <map>
#include <string>

#include "ops/device.h"
#include "models/gpu/warp/kernel_launch.h"
#include "models/gpu/warp/parser.h"
#include "sim/config/config.h"

using namespace hwsim;
using namespace hwsim::warp;

namespace {

struct Case {
  const char* kernel;
  std::int64_t grid, block;
  std::map<std::string, std::string> args;
  int sms;
};

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Totals {
  double instr = 0, seconds = 0;
};

void run(const WarpParams& params, const Case& c, Totals& total) {
  LaunchOptions o;
  o.args.grid = c.grid;
  o.args.block = c.block;
  o.args.args = c.args;
  o.sample_sms = c.sms;
  auto prog = load_kernel(std::string("workloads/kernels/") + c.kernel + ".hwk");
  double s = 1e30;
  std::unique_ptr<KernelRun> r;
  for (int rep = 0; rep < 3; ++rep) {
    double t0 = cpu_seconds();
    r = simulate_kernel(params, prog, o);
    s = std::min(s, cpu_seconds() - t0);
  }
  double wi = double(r->stats.warp_instructions);
  total.instr += wi;
  total.seconds += s;
  std::string args;
  for (const auto& [k, v] : c.args) args += " " + k + "=" + v;
  std::printf("%-15s grid %6lld block %4lld%-22s: %10.0f warp instr, %9lld cycles, %7.3f s cpu, %5.2f M warp-instr/s\n",
              c.kernel, (long long)c.grid, (long long)c.block, args.c_str(), wi, (long long)r->stats.cycles, s,
              wi / s / 1e6);
  std::fflush(stdout);
}

void part(const char* title, const WarpParams& params, const std::vector<Case>& cases) {
  std::printf("== %s\n", title);
  Totals t;
  for (const auto& c : cases) run(params, c, t);
  std::printf("   total: %.0f warp instructions in %.3f s cpu = %.2f M warp-instr/s\n", t.instr, t.seconds,
              t.instr / t.seconds / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  std::string only = argc > 1 ? argv[1] : "";
  auto params = WarpParams::from_config(load_chip("configs/h100.toml", {"gpu.core.model=warp"}));
  if (only.empty() || only == "mix")
    part("mix (goal >= 5 M warp-instr/s)", params,
         {
             {"bank_conflict", 528, 512, {{"stride", "1"}, {"iters", "1024"}}, 1},
             {"bank_conflict", 528, 512, {{"stride", "32"}, {"iters", "1024"}}, 1},
             {"divergence", 1056, 256, {{"paths", "8"}, {"work", "256"}}, 1},
             {"stream_copy", 132 * 8, 256, {}, 1},
             {"matmul_tiled", 64, 256, {{"n", "128"}}, 0},
         });
  if (only.empty() || only == "scaling") {
    // 4 ... 64 resident warps on one simulated SM, the same total work: a constant rate means the
    // scheduler's cost per issued instruction does not grow with the resident warps (work enough
    // for tens of milliseconds a case, so the rate is not the timer's noise)
    std::vector<Case> cases;
    for (int warps : {4, 8, 16, 32, 64}) {
      std::int64_t block = std::min(warps, 32) * 32;
      cases.push_back({"divergence", 132 * (warps * 32 / block), block, {{"paths", "1"}, {"work", std::to_string(65536 / warps)}}, 1});
    }
    for (int warps : {4, 8, 16, 32, 64}) {
      std::int64_t block = std::min(warps, 32) * 32;
      cases.push_back({"stream_read", 132 * (warps * 32 / block), block, {{"n", std::to_string(16 * 1024 * 1024)}}, 1});
    }
    part("scaling with resident warps per SM", params, cases);
  }
  if (only.empty() || only == "teaching")
    part("teaching sizes (whole chip)", params,
         {
             {"matmul_naive", 256, 256, {{"n", "256"}}, 0},
             {"matmul_tiled", 256, 256, {{"n", "256"}}, 0},
             {"matmul_naive", 4096, 256, {{"n", "1024"}}, 0},
             {"matmul_tiled", 4096, 256, {{"n", "1024"}}, 0},
         });
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak RSS %.1f MiB\n", double(ru.ru_maxrss) / 1024.0);
  return 0;
}
