#pragma once
// The whole-kernel figures of a warp-model run, derived once from KernelRun's counters: what a
// student compares with the chip's peaks. With --sample-sms only a share of the grid is simulated;
// the whole-kernel counts are then the sampled ones scaled by grid ÷ blocks simulated (`scale`),
// and the report says so. Rates divide by the kernel's execution time (cycles ÷ clock, the launch
// overhead left out, as Nsight Compute's throughputs do).
#include <cstdint>
#include <string>
#include <vector>

#include "models/gpu/warp/kernel_launch.h"

namespace hwsim::warp {

// Traffic through one memory level and how close it came to that level's peak.
struct LevelTraffic {
  std::string level;      // "l1" (LSU to L1: the sectors warps asked for), "l2" (L1 to L2), "dram"
  std::string label;      // as the report names it
  double bytes = 0;       // whole kernel
  double bandwidth = 0;   // bytes / kernel seconds
  double peak = 0;        // bytes/s: the chip's peak of that level (DRAM: the datasheet's)
  double percent_of_peak = 0;
};

struct KernelMetrics {
  // sampling
  bool sampled = false;             // a subset of SMs and blocks was simulated
  double scale = 1;                 // grid ÷ blocks simulated: sampled counts × scale = whole kernel
  // whole kernel
  double kernel_seconds = 0;        // cycles ÷ clock
  double warp_instructions = 0, thread_instructions = 0;
  double flops = 0;                 // FP32 (and f16x2) arithmetic: add, mul 1, fma 2 per lane; mma 4096 per warp
  double tensor_flops = 0;          // the mma part of flops
  std::vector<LevelTraffic> traffic;  // l1, l2, dram
  double dram_usable = 0;           // bytes/s the model's DRAM sustains (datasheet × efficiency)
  // roofline (against DRAM)
  double flop_rate = 0;             // flops / kernel seconds
  double peak_flop_rate = 0;        // FP32 CUDA cores (tensor cores when mma does most FLOPs), at the chip's clock
  double arithmetic_intensity = 0;  // flops / DRAM bytes (0 when no DRAM traffic)
  double ridge_point = 0;           // peak FLOP/s ÷ datasheet DRAM bandwidth
  double roof = 0;                  // attainable FLOP/s at this intensity: min(peak, intensity × DRAM peak)
  double percent_of_roof = 0;
  std::string bound;                // "memory" or "compute" (intensity below or above the ridge), "" without FLOPs
  // L2 hit rate as Nsight Compute counts it (lts__t_sector_hit_rate): load sectors found in L2,
  // plus store sectors (written without a fetch: counted as hits), over all sectors looked up
  double l2_hit_rate = 0, l2_load_hit_rate = 0;
  std::uint64_t l2_load_sectors = 0, l2_store_sectors = 0;  // sampled counts
  // energy (the chip's power model, as the tile level's): idle power × time, active SMs, FLOPs, L2 and DRAM bytes
  double energy = 0, average_power = 0;
};

KernelMetrics kernel_metrics(const KernelRun& r);

}  // namespace hwsim::warp
