// Benchmark: wall time and peak memory of simulating serving runs (each in a fresh process). The
// issue's goal: 1,000 requests of 200 output tokens on Llama-3-8B/H100. Prints figures; never fails.
//   build/bench/bench_serve [chip]
#include <fmt/format.h>

#include "bench/bench_support.h"

int main(int argc, char** argv) {
  using namespace hwsim::bench;
  std::string chip = argc > 1 ? argv[1] : "h100";
  const char* workloads[] = {"serve:model=llama3_8b,requests=100,rate=inf,prompt=128,output=200",
                             "serve:model=llama3_8b,requests=1000,rate=inf,prompt=128,output=200"};
  fmt::print("chip {}\n{:<72} {:>10} {:>14} {:>12}\n", chip, "workload", "wall s", "peak RSS MiB", "records");
  for (const char* spec : workloads) {
    TimedRun t = time_workload(chip, spec);
    fmt::print("{:<72} {:>10.3f} {:>14.1f} {:>12}\n", spec, t.wall_seconds, t.peak_rss_mib, t.records);
  }
  return 0;
}
