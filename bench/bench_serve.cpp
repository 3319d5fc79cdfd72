// Benchmark: wall and CPU time and peak memory of simulating serving runs (each in a fresh
// process), with the run's own figures beside them so the approximate mode (reuse=ops) can be
// judged against the exact one. Goals (docs/serving.md, "Speed"): 1,000 requests at once in ≤ 10 s;
// the shapes benchmark_serving runs (scale): 1,000 Poisson requests of mixed lengths in ≤ 10 s,
// 10,000 in ≤ 60 s, 2,000 at once of 1,024-token prompts in ≤ 20 s, each in ≤ 500 MB. Prints
// figures; never fails.
//   build/bench/bench_serve [chip] [all|scale|SPEC]
//   (all: also speculation and a 2-device system; scale: the shapes above, minutes; SPEC: that
//   serve workload alone)
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <sys/resource.h>

#include "models/gpu/tile/tile_machine.h"
#include "ops/device.h"
#include "run/simulate.h"
#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "workloads/workload.h"

namespace {

struct Run {
  double wall = 0, cpu = 0, rss_mib = 0, duration = 0, tokens_per_s = 0, ttft = 0, tpot = 0;
  long steps = 0, simulated = 0;
  long kernels_simulated = 0, kernels_replayed = 0;  // in the tile machine (kernel_replay.h)
};

// `target`: a chip name, or "system:NAME".
Run time_serve(const std::string& target, const std::string& spec) {
  using namespace hwsim;
  std::string text = run_isolated([&]() {
    auto begin = std::chrono::steady_clock::now();
    Workload workload = WorkloadCatalog::build(spec);
    RunResult r;
    if (target.rfind("system:", 0) == 0) {
      Config system = load_system_config(target.substr(7), {});
      r = simulate_system(system, load_chip(system.text("system.chip"), {}), workload);
    } else {
      r = simulate(load_chip(target, {}), workload);
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    struct rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double cpu = double(usage.ru_utime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec);
    const ServingMetrics& m = r.serving;
    TileMachine::ReplayCounts kernels = TileMachine::process_replay_counts();
    return fmt::format("{:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} {} {} {}", wall, cpu,
                       usage.ru_maxrss / 1024.0, m.duration_s, m.output_tokens_per_s, m.ttft_s.mean, m.tpot_s.mean,
                       m.engine_steps, m.simulated_steps, kernels.simulated, kernels.replayed);
  });
  Run t;
  std::sscanf(text.c_str(), "%lf %lf %lf %lf %lf %lf %lf %ld %ld %ld %ld", &t.wall, &t.cpu, &t.rss_mib, &t.duration,
              &t.tokens_per_s, &t.ttft, &t.tpot, &t.steps, &t.simulated, &t.kernels_simulated, &t.kernels_replayed);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string chip = argc > 1 ? argv[1] : "h100";
  std::string mode = argc > 2 ? argv[2] : "";
  const std::string goal = "serve:model=llama3_8b,requests=1000,rate=inf,prompt=128,output=200";
  std::vector<std::pair<std::string, std::string>> runs = {
      {chip, "serve:model=llama3_8b,requests=100,rate=inf,prompt=128,output=200"},
      {chip, goal},
      {chip, goal + ",reuse=ops"},
  };
  if (mode == "scale") {
    const std::string mixed = ",prompt=uniform:64..1024,output=uniform:16..512";
    runs = {
        {chip, "serve:model=llama3_8b,requests=1000,rate=50,prompt=128,output=200"},
        {chip, "serve:model=llama3_8b,requests=1000,rate=50" + mixed},
        {chip, "serve:model=llama3_8b,requests=2000,rate=inf,prompt=1024,output=128"},
        {chip, "serve:model=llama3_8b,requests=10000,rate=20" + mixed},
    };
  }
  if (mode.rfind("serve:", 0) == 0) runs = {{chip, mode}};
  if (mode == "all") {
    runs.push_back({chip, "serve:model=llama3_8b,requests=64,rate=inf,prompt=128,output=128,draft=llama3_2_1b,k=4"});
    runs.push_back({"system:h100x2", "serve:model=llama3_8b,requests=300,rate=12,prompt=2048,output=256,seed=1,"
                                     "disaggregate=1P1D"});
  }
  fmt::print("{:<14} {:<100} {:>8} {:>8} {:>9} {:>6} {:>6} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "on", "workload",
             "wall s", "cpu s", "RSS MiB", "steps", "sim", "duration", "out tok/s", "TTFT ms", "TPOT ms", "k. sim",
             "k. replay");
  for (const auto& [target, spec] : runs) {
    Run t = time_serve(target, spec);
    fmt::print("{:<14} {:<100} {:>8.2f} {:>8.2f} {:>9.1f} {:>6} {:>6} {:>9.3f}s {:>9.1f} {:>9.2f} {:>9.3f} {:>9} {:>9}\n",
               target, spec, t.wall, t.cpu, t.rss_mib, t.steps, t.simulated, t.duration, t.tokens_per_s, t.ttft * 1e3,
               t.tpot * 1e3, t.kernels_simulated, t.kernels_replayed);
  }
  return 0;
}
