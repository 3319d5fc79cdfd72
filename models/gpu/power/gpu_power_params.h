#pragma once
// A GPU's power model, typed once from its `power.*` keys (declared in gpu_power_params.cpp; the
// board limit, idle power and HBM energy are shared with TPUs in models/memory/main_memory_params).
//
// Power = static + dynamic. Static is what the board draws with nothing running; its share above
// the lowest-clock floor scales with the clock like dynamic power (clock tree, leakage at the
// voltage the clock needs). Dynamic energy is counted per SM-second with resident work (warps
// issuing or waiting on memory), per FLOP of each math dtype, per byte through L2 and per byte of
// HBM (and of an AMD chip's memory-side cache). Everything in the SM clock domain (SMs, FLOPs,
// L2) costs (clock / max clock)^energy_exponent times its max-clock energy per operation: the
// voltage the clock needs, squared; HBM and the memory-side cache are in their own domains.
// The governor (dvfs_governor.h) lowers the SM clock when the power would pass the limit.
#include <array>
#include <string>

#include "ops/dtype.h"

namespace hwsim {

class Config;

struct GpuPowerParams {
  double limit = 0;               // power.tdp: watts the governor holds the board to (0: no limit)
  double idle = 0;                // power.idle: board power at the max clock with nothing running
  double idle_floor = 0;          // power.idle_floor: board power idle at the lowest clock
  double sm_active = 0;           // power.sm_active: watts per SM holding work, at the max clock
  std::array<double, kDTypeCount> flop_energy{};  // joules per FLOP at the max clock, by math dtype
  double l2_energy_per_byte = 0;  // power.l2_energy_per_byte (at the max clock)
  double hbm_energy_per_byte = 0; // power.hbm_energy_per_byte
  double mall_energy_per_byte = 0;// power.mall_energy_per_byte (memory-side cache)
  double constant_data_share = 1; // power.constant_data_share: of a byte's L2/MALL/HBM energy when
                                  // the data is one repeated value (a kernel that reads nothing)
  double energy_exponent = 0;     // power.dvfs.energy_exponent
  double max_clock = 0;           // gpu.sm.clock, Hz: the highest clock the governor sets
  double reference_clock = 0;     // power.dvfs.reference_clock, Hz: the clock the energies above
                                  // are given at (the chip's rated max; gpu.sm.clock when 0)
  double min_clock = 0;           // power.dvfs.min_clock, Hz
  double clock_step = 0;          // power.dvfs.clock_step, Hz: clocks are whole steps
  double window = 0;              // power.dvfs.window, seconds: the governor's averaging window
  bool sustained = true;          // power.dvfs.start: "sustained" (no idle history) or "cold"
  double control_period = 0;      // power.dvfs.control_period, seconds between governor updates

  bool governed() const { return limit > 0; }
  // Dynamic energy per operation at `clock` relative to the reference clock: (clock/ref)^exponent.
  double energy_scale(double clock) const;
  // Power scale of work whose rate follows the clock: (clock/ref)^(1 + exponent).
  double power_scale(double clock) const;
  // Board power with nothing running at `clock`.
  double static_watts(double clock) const;
  // Energy of one FLOP of math dtype `t` at the max clock (CUDA cores for fp32).
  double flop_joules(DType t) const { return flop_energy[std::size_t(t)]; }

  // From a validated config of kind gpu; `flops_per_clock` (per dtype, per SM) derives the energy
  // per FLOP of a dtype without its own key.
  static GpuPowerParams from_config(const Config& c, const std::array<double, kDTypeCount>& flops_per_clock);

 private:
  // energy_scale's last clock and result: the governor holds a clock over many updates, each
  // asking several times (std::pow is a large share of a long prefill's time otherwise).
  // Keyed by the fields it reads too: a copy may change them.
  mutable double memo_clock_ = -1, memo_reference_ = 0, memo_exponent_ = 0, memo_scale_ = 1;
};

}  // namespace hwsim
