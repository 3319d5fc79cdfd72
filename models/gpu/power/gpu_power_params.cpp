#include "models/gpu/power/gpu_power_params.h"

#include <cmath>
#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// Math dtypes with their own energy key, in DType order of flops_per_clock.
constexpr DType kFlopDtypes[] = {DType::fp32, DType::tf32, DType::bf16, DType::fp16,
                                 DType::fp8,  DType::int8, DType::fp6,  DType::fp4};

std::string energy_key(DType t) { return "power.energy_per_flop." + std::string(dtype_name(t)); }

std::vector<ParamDecl> power_decls() {
  std::vector<ParamDecl> d = {
      quantity_param("power.idle_floor", Dimension::power,
                     "board power idle at the lowest clock: the part of power.idle that does not scale with the SM "
                     "clock (HBM refresh, PHYs, board); 0 = all of power.idle scales")
          .defaults_to("0 W").zero_allowed(),
      quantity_param("power.sm_active", Dimension::power,
                     "power of one SM while it holds work (warps issuing or waiting on memory: schedulers, register "
                     "files, LSU), beyond idle, at the max clock")
          .defaults_to("0 W").zero_allowed(),
      quantity_param("power.l2_energy_per_byte", Dimension::energy,
                     "energy of one byte through L2 (SRAM, crossbar, the SM's load/store path) at the max clock")
          .defaults_to("0 J").zero_allowed(),
      fraction_param("power.constant_data_share",
                     "share of a byte's L2, memory-side cache and HBM energy spent when the data written is one "
                     "repeated value (a fill: a kernel that reads nothing), whose data lines do not toggle")
          .defaults_to("1"),
      real_param("power.dvfs.energy_exponent",
                 "dynamic energy per operation in the SM clock domain scales as (clock / max clock)^this: the supply "
                 "voltage the clock needs, squared (2: voltage proportional to the clock; 0: fixed voltage)")
          .defaults_to("1").zero_allowed().at_most(4),
      quantity_param("power.dvfs.reference_clock", Dimension::frequency,
                     "the SM clock the power.* energies and power.idle are given at (the chip's rated max clock): "
                     "set it where gpu.sm.clock is changed as a what-if, so a lower clock costs less per operation; "
                     "0 = gpu.sm.clock")
          .defaults_to("0 Hz").zero_allowed(),
      quantity_param("power.dvfs.min_clock", Dimension::frequency,
                     "lowest SM clock the power governor may set; 0 = one clock step")
          .defaults_to("0 Hz").zero_allowed(),
      quantity_param("power.dvfs.clock_step", Dimension::frequency, "SM clocks are whole multiples of this step")
          .defaults_to("15 MHz"),
      quantity_param("power.dvfs.window", Dimension::time,
                     "the power governor's averaging window: it sets the clock at which the power averaged over about "
                     "this long meets power.tdp")
          .defaults_to("30 ms"),
      choice_param("power.dvfs.start", {"sustained", "cold"},
                   "the governor's history at the start of a run: sustained (no idle history: the clock the workload "
                   "sustains once it has run a while, as benchmarks measure) or cold (idle before the run)")
          .defaults_to("sustained"),
      quantity_param("power.dvfs.control_period", Dimension::time,
                     "simulated time between the governor's updates inside a kernel (a resolution, not a hardware "
                     "figure: the clock also updates at every kernel start)")
          .defaults_to("20 us"),
  };
  for (DType t : kFlopDtypes) {
    bool own = t == DType::fp32 || t == DType::bf16;
    d.push_back(quantity_param(energy_key(t), Dimension::energy,
                               own ? fmt::format("energy of one {} FLOP at the max clock ({})", dtype_name(t),
                                                 t == DType::fp32 ? "CUDA cores" : "tensor cores")
                                   : fmt::format("energy of one dense {} tensor-core FLOP at the max clock; 0 = the "
                                                 "power of bf16 tensor cores at the same clock (bf16's energy x "
                                                 "flops_per_clock.bf16 / flops_per_clock.{})",
                                                 dtype_name(t), dtype_name(t)))
                    .defaults_to("0 J")
                    .zero_allowed());
  }
  return d;
}

const ParamRegistration gpu_power_params({"gpu"}, power_decls());

}  // namespace

double GpuPowerParams::energy_scale(double clock) const {
  if (!(reference_clock > 0)) return 1.0;
  if (clock != memo_clock_ || reference_clock != memo_reference_ || energy_exponent != memo_exponent_) {
    memo_clock_ = clock, memo_reference_ = reference_clock, memo_exponent_ = energy_exponent;
    memo_scale_ = std::pow(clock / reference_clock, energy_exponent);
  }
  return memo_scale_;
}

double GpuPowerParams::power_scale(double clock) const {
  return reference_clock > 0 ? (clock / reference_clock) * energy_scale(clock) : 1.0;
}

double GpuPowerParams::static_watts(double clock) const { return idle_floor + (idle - idle_floor) * power_scale(clock); }

GpuPowerParams GpuPowerParams::from_config(const Config& c, const std::array<double, kDTypeCount>& flops_per_clock) {
  GpuPowerParams p;
  p.limit = c.number("power.tdp");
  p.idle = c.number("power.idle");
  p.idle_floor = c.number("power.idle_floor");
  if (p.idle_floor > p.idle)
    config_error(fmt::format("{}: power.idle_floor: {:g} W is above power.idle ({:g} W); the floor is the part of the "
                             "idle power that does not scale with the clock",
                             c.value("power.idle_floor").origin, p.idle_floor, p.idle));
  p.sm_active = c.number("power.sm_active");
  p.l2_energy_per_byte = c.number("power.l2_energy_per_byte");
  p.hbm_energy_per_byte = c.number("power.hbm_energy_per_byte");
  p.mall_energy_per_byte = c.number("power.mall_energy_per_byte");
  p.constant_data_share = c.number("power.constant_data_share");
  p.energy_exponent = c.number("power.dvfs.energy_exponent");
  p.max_clock = c.number("gpu.sm.clock");
  p.reference_clock = c.number("power.dvfs.reference_clock");
  if (p.reference_clock == 0) p.reference_clock = p.max_clock;
  p.clock_step = c.number("power.dvfs.clock_step");
  p.min_clock = std::max(c.number("power.dvfs.min_clock"), p.clock_step);
  if (p.min_clock > p.max_clock)
    config_error(fmt::format("{}: power.dvfs.min_clock: {:g} MHz is above gpu.sm.clock ({:g} MHz)",
                             c.value("power.dvfs.min_clock").origin, p.min_clock / 1e6, p.max_clock / 1e6));
  p.window = c.number("power.dvfs.window");
  p.sustained = c.text("power.dvfs.start") == "sustained";
  p.control_period = c.number("power.dvfs.control_period");
  for (DType t : kFlopDtypes) p.flop_energy[std::size_t(t)] = c.number(energy_key(t));
  double bf16 = p.flop_joules(DType::bf16), bf16_rate = flops_per_clock[std::size_t(DType::bf16)];
  // A tensor dtype without its own figure: bf16's power per clock; one without a rate of its own
  // (int4 weights are multiplied as bf16 after unpacking): bf16's energy per FLOP.
  for (std::size_t t = 0; t < kDTypeCount; ++t) {
    double& e = p.flop_energy[t];
    if (e != 0 || DType(t) == DType::fp32) continue;
    double rate = flops_per_clock[t];
    e = rate > 0 && bf16_rate > 0 ? bf16 * bf16_rate / rate : bf16;
  }
  return p;
}

}  // namespace hwsim
