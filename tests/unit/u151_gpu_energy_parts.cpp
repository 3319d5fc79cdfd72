// The GPU energy of a span of activity (models/gpu/power/gpu_energy): each component is its
// count times its energy, scaled by the clock as documented (SM domain: (f/fmax)^exponent per
// operation, SM activity and the clock-dependent idle share also × f/fmax; HBM not at all); the
// parts sum to the total; more FLOPs or bytes never cost less.
#include <doctest/doctest.h>

#include "models/gpu/power/gpu_energy.h"

using namespace hwsim;

namespace {
GpuPowerParams params() {
  GpuPowerParams p;
  p.idle = 100, p.idle_floor = 60, p.sm_active = 2, p.energy_exponent = 1, p.max_clock = p.reference_clock = 2e9;
  p.flop_energy[std::size_t(DType::bf16)] = 1e-12;
  p.flop_energy[std::size_t(DType::fp32)] = 10e-12;
  p.l2_energy_per_byte = 20e-12, p.hbm_energy_per_byte = 50e-12;
  return p;
}
GpuActivity activity() {
  GpuActivity a;
  a.seconds = 1e-3, a.busy_sm_seconds = 0.1;
  a.flops[std::size_t(DType::bf16)] = 1e12;
  a.flops[std::size_t(DType::fp32)] = 1e9;
  a.l2_bytes = 1e9, a.hbm_bytes = 2e9;
  return a;
}
}  // namespace

TEST_CASE("gpu energy: at the max clock each part is its count times its energy") {
  GpuEnergy e = gpu_energy(params(), activity(), 2e9);
  CHECK(e[GpuEnergyPart::idle] == doctest::Approx(0.1));          // 100 W × 1 ms
  CHECK(e[GpuEnergyPart::sm_active] == doctest::Approx(0.2));     // 2 W × 0.1 SM-s
  CHECK(e[GpuEnergyPart::tensor_flops] == doctest::Approx(1.0));  // 1e12 × 1 pJ
  CHECK(e[GpuEnergyPart::simt_flops] == doctest::Approx(0.01));   // 1e9 × 10 pJ
  CHECK(e[GpuEnergyPart::l2] == doctest::Approx(0.02));
  CHECK(e[GpuEnergyPart::hbm] == doctest::Approx(0.1));
  CHECK(e.total() == doctest::Approx(0.1 + 0.2 + 1.0 + 0.01 + 0.02 + 0.1));
  CHECK(e.core() + e.memory() + e[GpuEnergyPart::idle] == doctest::Approx(e.total()));
}

TEST_CASE("gpu energy: at half the clock, per-operation energy halves and power-like parts quarter") {
  GpuEnergy e = gpu_energy(params(), activity(), 1e9);
  CHECK(e[GpuEnergyPart::idle] == doctest::Approx((60 + 40 * 0.25) * 1e-3));
  CHECK(e[GpuEnergyPart::sm_active] == doctest::Approx(0.2 * 0.25));
  CHECK(e[GpuEnergyPart::tensor_flops] == doctest::Approx(0.5));
  CHECK(e[GpuEnergyPart::l2] == doctest::Approx(0.01));
  CHECK(e[GpuEnergyPart::hbm] == doctest::Approx(0.1));  // its own clock domain
}

TEST_CASE("gpu energy: monotonic in FLOPs and bytes") {
  GpuPowerParams p = params();
  GpuActivity a = activity();
  double base = gpu_energy(p, a, 1.5e9).total();
  for (auto more : {+[](GpuActivity& x) { x.flops[std::size_t(DType::bf16)] *= 2; },
                    +[](GpuActivity& x) { x.flops[std::size_t(DType::fp32)] *= 2; },
                    +[](GpuActivity& x) { x.l2_bytes *= 2; }, +[](GpuActivity& x) { x.hbm_bytes *= 2; }}) {
    GpuActivity b = a;
    more(b);
    CHECK(gpu_energy(p, b, 1.5e9).total() > base);
  }
}
