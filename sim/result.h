#pragma once
// What a simulation produced, as plain structs (ChampSim style). Models fill the raw fields;
// finalize() derives every metric once; printers in viz/ only format, never compute.
#include <string>
#include <vector>

namespace hwsim {

// Where a kernel's time went, in seconds, averaged over the chip's SMs (they sum to the kernel's
// duration): math = tensor/CUDA cores busy; memory_wait = SM stalled on L2/HBM beyond its math;
// overhead = launch, pipeline fill and per-CTA setup; idle = SMs without work (tail of the last
// wave, or a grid smaller than the chip).
struct TimeBreakdown {
  double math = 0;
  double memory_wait = 0;
  double overhead = 0;
  double idle = 0;
};

struct KernelRecord {
  // filled by the model
  std::string name;          // op name, "layer0.qkv_proj"
  std::string op_class;      // "gemm", "attention", "norm", ...
  std::string config;        // how it was lowered: "tile 128x256x64 st4 splitk1 cluster2"
  std::string dtype;         // math dtype
  double start = 0, end = 0; // seconds from the start of the step (start: the launch begins)
  double launch = 0;         // of which the launch (before the first CTA runs)
  double flops = 0;
  double min_bytes = 0;      // each input read once, each output written once
  double l2_bytes = 0;       // traffic at L2 (hits + misses)
  double hbm_bytes = 0;      // traffic at device memory
  int ctas = 0, ctas_per_sm = 0, sms_used = 0;
  double waves = 0;
  double peak_flop_rate = 0; // for this kernel's dtype
  double peak_hbm_bandwidth = 0;
  TimeBreakdown breakdown;
  double energy = 0;         // joules (idle power over the kernel's time + its operations)
  // derived by finalize()
  double seconds = 0;
  double roofline_floor = 0; // max(flops / peak, min_bytes / peak bandwidth)
  double arithmetic_intensity = 0;  // flops / min_bytes
  double ridge_point = 0;           // peak_flop_rate / peak_hbm_bandwidth
  std::string bound;                // "compute" or "memory" (by intensity vs ridge)
  double achieved_flop_rate = 0, hbm_bandwidth_achieved = 0;
};

struct StepResult {
  std::string label;
  std::vector<KernelRecord> kernels;
  double seconds = 0;        // filled by the model: wall time of the step
};

struct RunResult {
  std::string level;         // fidelity level that produced it: "tile", "warp", "bound"
  std::vector<StepResult> steps;
  // derived by finalize()
  double seconds = 0;        // whole workload
  double flops = 0, min_bytes = 0, l2_bytes = 0, hbm_bytes = 0;
  double roofline_floor = 0; // sum of kernel floors
  double times_floor = 0;    // seconds / roofline_floor: how far from the physical limit
  double achieved_flop_rate = 0;
  double percent_of_peak = 0;      // achieved / peak of the dominant dtype
  double peak_flop_rate = 0;       // of the kernel class holding most FLOPs
  double peak_hbm_bandwidth = 0;
  double hbm_bandwidth_achieved = 0, l2_bandwidth_achieved = 0;
  double arithmetic_intensity = 0, ridge_point = 0;
  std::string bound;
  TimeBreakdown breakdown;   // summed over kernels, plus gaps between kernels as overhead
  double energy = 0;         // joules, all kernels
  double average_power = 0;  // watts: energy / seconds
  double tdp = 0;            // the chip's board power limit (set by the model)
  bool above_tdp = false;    // average power over the limit: a real chip would lower its clock,
                             // which the model does not simulate
};

// Computes every derived field of `result` from the raw ones.
void finalize(RunResult& result);

}  // namespace hwsim
