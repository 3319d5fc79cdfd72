#pragma once
// The energy of a span of GPU activity at one SM clock, by component (GpuPowerParams says what
// each costs). The tile machine's kernels and the governor's control intervals are priced by the
// same function, so a kernel's parts sum to its energy and every part grows with its own count.
#include <array>
#include <string>
#include <vector>

#include "models/gpu/power/gpu_power_params.h"

namespace hwsim {

// What a span of time did. FLOPs are by math dtype (fp32 = CUDA cores).
struct GpuActivity {
  double seconds = 0;
  double busy_sm_seconds = 0;  // summed over SMs: time each held resident work
  std::array<double, kDTypeCount> flops{};
  double l2_bytes = 0;
  double mall_bytes = 0;
  double hbm_bytes = 0;
  bool constant_data = false;  // the bytes are one repeated value (power.constant_data_share)
};

// Components, in the order of gpu_energy_part_names().
enum class GpuEnergyPart { idle, sm_active, tensor_flops, simt_flops, l2, mall, hbm };
inline constexpr std::size_t kGpuEnergyParts = 7;

// "static", "sm_active", "tensor_flops", "simt_flops", "l2", "mall", "hbm"; with_mall false
// leaves "mall" out (a chip without a memory-side cache).
std::vector<std::string> gpu_energy_part_names(bool with_mall);

struct GpuEnergy {
  std::array<double, kGpuEnergyParts> joules{};
  double& operator[](GpuEnergyPart p) { return joules[std::size_t(p)]; }
  double operator[](GpuEnergyPart p) const { return joules[std::size_t(p)]; }
  double total() const;
  // Dynamic energy in the SM clock domain (SM activity, FLOPs, L2): what a lower clock makes cheaper.
  double core() const;
  // Dynamic energy outside it (HBM, the memory-side cache).
  double memory() const;
  GpuEnergy& operator+=(const GpuEnergy& o);
};

// The energy of `a` spent at SM clock `clock` (Hz).
GpuEnergy gpu_energy(const GpuPowerParams& p, const GpuActivity& a, double clock);

}  // namespace hwsim
