// Benchmark: wall time and peak memory of simulating one GEMM, per shape, each in a fresh process
// (SystemC elaborates once per process). Prints figures; never fails on speed.
//   build/bench/bench_gemm [chip]
#include <chrono>
#include <fmt/format.h>
#include <sys/resource.h>

#include "ops/device.h"
#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "run/simulate.h"
#include "workloads/workload.h"

int main(int argc, char** argv) {
  using namespace hwsim;
  std::string chip = argc > 1 ? argv[1] : "h100";
  const char* shapes[] = {"gemm:M=1024,N=1024,K=1024,dtype=bf16", "gemm:M=4096,N=4096,K=4096,dtype=bf16",
                          "gemm:M=8192,N=8192,K=8192,dtype=bf16", "gemm:M=16384,N=16384,K=16384,dtype=bf16",
                          "gemm:M=1,N=4096,K=4096,dtype=bf16"};
  fmt::print("{:<44} {:>12} {:>10} {:>14}\n", "workload", "wall ms", "CTAs", "peak RSS MiB");
  for (const char* spec : shapes) {
    std::string line = run_isolated([&]() {
      Config config = load_chip(chip, {});
      Workload workload = WorkloadCatalog::build(spec);
      auto begin = std::chrono::steady_clock::now();
      RunResult result = simulate(config, workload);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
      struct rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      int ctas = 0;
      for (const auto& s : result.steps)
        for (const auto& k : s.records) ctas += int(k.detail("ctas"));
      return fmt::format("{:<44} {:>12.2f} {:>10} {:>14.1f}", spec, ms, ctas, usage.ru_maxrss / 1024.0);
    });
    fmt::print("{}\n", line);
  }
  return 0;
}
