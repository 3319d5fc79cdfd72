// Benchmark: wall time and peak memory of simulating workloads on the systolic (TPU) device,
// each in a fresh process (SystemC elaborates once per process). Goals (docs/systolic.md): a
// 2048³ bf16 GEMM on a 128x128 array in <= 50 ms, decode_llama8b on TPU v5p in <= 0.3 s.
// Prints figures; never fails on speed.
//   build/bench/bench_tpu
#include <fmt/format.h>
#include <utility>

#include "bench/bench_support.h"

int main() {
  using namespace hwsim::bench;
  const std::pair<const char*, const char*> points[] = {
      {"tpu_v5e", "gemm:M=2048,N=2048,K=2048,dtype=bf16"},
      {"tpu_v5p", "decode_llama8b"},
      {"tpu_v5p", "prefill_llama8b"},
      {"tpu_v6e", "decode:model=llama3_8b,batch=64,context=2048"},
  };
  fmt::print("{:<9} {:<48} {:>9} {:>8} {:>14} {:>12}\n", "chip", "workload", "wall s", "ops", "peak RSS MiB",
             "simulated s");
  for (const auto& [chip, spec] : points) {
    TimedRun t = time_workload(chip, spec);
    fmt::print("{:<9} {:<48} {:>9.4f} {:>8} {:>14.1f} {:>12.6f}\n", chip, spec, t.wall_seconds, t.records,
               t.peak_rss_mib, t.simulated_seconds);
  }
  return 0;
}
