#include "sim/result.h"

#include <algorithm>
#include <map>

namespace hwsim {

namespace {
void finalize_kernel(KernelRecord& k) {
  k.seconds = k.end - k.start;
  double compute_floor = k.peak_flop_rate > 0 ? k.flops / k.peak_flop_rate : 0;
  double memory_floor = k.peak_hbm_bandwidth > 0 ? k.min_bytes / k.peak_hbm_bandwidth : 0;
  k.roofline_floor = std::max(compute_floor, memory_floor);
  k.arithmetic_intensity = k.min_bytes > 0 ? k.flops / k.min_bytes : 0;
  k.ridge_point = k.peak_hbm_bandwidth > 0 ? k.peak_flop_rate / k.peak_hbm_bandwidth : 0;
  k.bound = compute_floor >= memory_floor ? "compute" : "memory";
  k.achieved_flop_rate = k.seconds > 0 ? k.flops / k.seconds : 0;
  k.hbm_bandwidth_achieved = k.seconds > 0 ? k.hbm_bytes / k.seconds : 0;
}
}  // namespace

void finalize(RunResult& r) {
  r.seconds = r.flops = r.min_bytes = r.l2_bytes = r.hbm_bytes = r.roofline_floor = r.energy = 0;
  r.breakdown = {};
  std::map<double, double> flops_by_peak;
  for (auto& step : r.steps) {
    r.seconds += step.seconds;
    double kernel_time = 0;
    for (auto& k : step.kernels) {
      finalize_kernel(k);
      kernel_time += k.seconds;
      r.flops += k.flops;
      r.min_bytes += k.min_bytes;
      r.l2_bytes += k.l2_bytes;
      r.hbm_bytes += k.hbm_bytes;
      r.roofline_floor += k.roofline_floor;
      r.energy += k.energy;
      r.breakdown.math += k.breakdown.math;
      r.breakdown.memory_wait += k.breakdown.memory_wait;
      r.breakdown.overhead += k.breakdown.overhead;
      r.breakdown.idle += k.breakdown.idle;
      flops_by_peak[k.peak_flop_rate] += k.flops;
      r.peak_hbm_bandwidth = std::max(r.peak_hbm_bandwidth, k.peak_hbm_bandwidth);
    }
    r.breakdown.overhead += std::max(0.0, step.seconds - kernel_time);  // gaps between kernels
  }
  double most = -1;
  for (const auto& [peak, flops] : flops_by_peak)
    if (flops > most) most = flops, r.peak_flop_rate = peak;
  r.achieved_flop_rate = r.seconds > 0 ? r.flops / r.seconds : 0;
  r.times_floor = r.roofline_floor > 0 ? r.seconds / r.roofline_floor : 0;
  r.average_power = r.seconds > 0 ? r.energy / r.seconds : 0;
  r.above_tdp = r.tdp > 0 && r.average_power > r.tdp;
  r.percent_of_peak = r.peak_flop_rate > 0 ? 100.0 * r.achieved_flop_rate / r.peak_flop_rate : 0;
  r.hbm_bandwidth_achieved = r.seconds > 0 ? r.hbm_bytes / r.seconds : 0;
  r.l2_bandwidth_achieved = r.seconds > 0 ? r.l2_bytes / r.seconds : 0;
  r.arithmetic_intensity = r.min_bytes > 0 ? r.flops / r.min_bytes : 0;
  r.ridge_point = r.peak_hbm_bandwidth > 0 ? r.peak_flop_rate / r.peak_hbm_bandwidth : 0;
  r.bound = r.arithmetic_intensity >= r.ridge_point ? "compute" : "memory";
}

}  // namespace hwsim
