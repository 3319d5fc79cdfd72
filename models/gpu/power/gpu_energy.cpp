#include "models/gpu/power/gpu_energy.h"

namespace hwsim {

std::vector<std::string> gpu_energy_part_names(bool with_mall) {
  std::vector<std::string> names = {"static", "sm_active", "tensor_flops", "simt_flops", "l2", "mall", "hbm"};
  if (!with_mall) names.erase(names.begin() + std::ptrdiff_t(GpuEnergyPart::mall));
  return names;
}

double GpuEnergy::total() const {
  double t = 0;
  for (double j : joules) t += j;
  return t;
}

double GpuEnergy::core() const {
  return (*this)[GpuEnergyPart::sm_active] + (*this)[GpuEnergyPart::tensor_flops] +
         (*this)[GpuEnergyPart::simt_flops] + (*this)[GpuEnergyPart::l2];
}

double GpuEnergy::memory() const { return (*this)[GpuEnergyPart::mall] + (*this)[GpuEnergyPart::hbm]; }

GpuEnergy& GpuEnergy::operator+=(const GpuEnergy& o) {
  for (std::size_t i = 0; i < kGpuEnergyParts; ++i) joules[i] += o.joules[i];
  return *this;
}

GpuEnergy gpu_energy(const GpuPowerParams& p, const GpuActivity& a, double clock) {
  const double per_op = p.energy_scale(clock);
  GpuEnergy e;
  e[GpuEnergyPart::idle] = p.static_watts(clock) * a.seconds;
  e[GpuEnergyPart::sm_active] = p.sm_active * p.power_scale(clock) * a.busy_sm_seconds;
  for (std::size_t t = 0; t < kDTypeCount; ++t) {
    GpuEnergyPart unit = DType(t) == DType::fp32 ? GpuEnergyPart::simt_flops : GpuEnergyPart::tensor_flops;
    e[unit] += p.flop_energy[t] * per_op * a.flops[t];
  }
  const double data = a.constant_data ? p.constant_data_share : 1.0;
  e[GpuEnergyPart::l2] = p.l2_energy_per_byte * per_op * data * a.l2_bytes;
  e[GpuEnergyPart::mall] = p.mall_energy_per_byte * data * a.mall_bytes;
  e[GpuEnergyPart::hbm] = p.hbm_energy_per_byte * data * a.hbm_bytes;
  return e;
}

}  // namespace hwsim
