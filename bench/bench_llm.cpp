// Benchmark: wall time and peak memory of simulating LLM workloads, each in a fresh process
// (SystemC elaborates once per process). Prints figures; never fails on speed.
//   build/bench/bench_llm [chip]
#include <fmt/format.h>

#include "bench/bench_support.h"

int main(int argc, char** argv) {
  using namespace hwsim::bench;
  std::string chip = argc > 1 ? argv[1] : "h200";
  // The 70B model in bf16 needs 141 GB: it fits an H200, not an H100.
  const char* workloads[] = {"decode_llama8b", "decode:model=llama3_8b,batch=64,context=2048", "decode_llama70b",
                             "prefill_llama8b", "generate:model=llama3_8b,batch=1,prompt=128,output=512"};
  fmt::print("chip {}\n{:<58} {:>10} {:>9} {:>14} {:>12}\n", chip, "workload", "wall s", "kernels", "peak RSS MiB",
             "simulated s");
  for (const char* spec : workloads) {
    TimedRun t = time_workload(chip, spec);
    fmt::print("{:<58} {:>10.3f} {:>9} {:>14.1f} {:>12.6f}\n", spec, t.wall_seconds, t.records, t.peak_rss_mib,
               t.simulated_seconds);
  }
  return 0;
}
