// Benchmark: wall time and peak memory of simulating LLM workloads, each in a fresh process
// (SystemC elaborates once per process). Prints figures; never fails on speed.
//   build/bench/bench_llm [chip]
#include <chrono>
#include <fmt/format.h>
#include <sys/resource.h>

#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "app/simulate.h"
#include "workloads/workload.h"

int main(int argc, char** argv) {
  using namespace hwsim;
  std::string chip = argc > 1 ? argv[1] : "h200";
  // The 70B model in bf16 needs 141 GB: it fits an H200, not an H100.
  const char* workloads[] = {"decode_llama8b", "decode:model=llama3_8b,batch=64,context=2048", "decode_llama70b",
                             "prefill_llama8b", "generate:model=llama3_8b,batch=1,prompt=128,output=512"};
  fmt::print("chip {}\n{:<58} {:>10} {:>9} {:>14} {:>12}\n", chip, "workload", "wall s", "kernels", "peak RSS MiB",
             "simulated s");
  for (const char* spec : workloads) {
    std::string line = run_isolated([&]() {
      Config config = load_config(chip, {});
      auto begin = std::chrono::steady_clock::now();
      Workload workload = WorkloadCatalog::build(spec);
      RunResult result = simulate(config, workload);
      double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      struct rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      std::size_t kernels = 0;
      for (const auto& s : result.steps) kernels += s.records.size();
      return fmt::format("{:<58} {:>10.3f} {:>9} {:>14.1f} {:>12.6f}", spec, wall, kernels, usage.ru_maxrss / 1024.0,
                         result.seconds);
    });
    fmt::print("{}\n", line);
  }
  return 0;
}
