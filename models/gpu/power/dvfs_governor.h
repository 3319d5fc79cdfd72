#pragma once
// The GPU's power governor (plain C++, no SystemC): it lowers the SM clock when the board power,
// averaged over power.dvfs.window, would pass power.tdp, and raises it back when there is room,
// as the driver's software power cap does.
//
// After each span of activity it is told the dynamic energy spent in the SM clock domain and
// outside it. It keeps exponentially weighted averages of both (the SM-domain part normalised to
// the reference clock, as if its work rate followed the clock), and sets the clock to the highest whole
// clock step at which static + averaged dynamic power stays within the limit. For work whose rate
// does follow the clock this is exact in one step; for memory-bound work (whose power falls less
// than the clock) later spans correct it: at the fixed point the averaged power is the limit.
// Start "sustained": no history, the averages are those of what has run so far (bias-corrected);
// "cold": an idle history of one window's weight, so the clock falls over about a window.
#include <memory>
#include <vector>

#include "models/gpu/power/gpu_power_params.h"

namespace hwsim {

class DvfsGovernor {
 public:
  explicit DvfsGovernor(const GpuPowerParams& params);

  double clock() const { return clock_; }
  bool throttled() const { return clock_ < params_.max_clock; }

  // A span of `seconds` just ran at clock() and spent `core_joules` of dynamic energy in the SM
  // clock domain and `memory_joules` outside it: folds it into the averages and sets the clock
  // for what follows. Returns the new clock.
  double observe(double seconds, double core_joules, double memory_joules);

  // The highest clock step at which static power + core_watts_at_reference × power_scale(clock) +
  // memory_watts stays within the limit (the max clock when it does there; the min clock when
  // nothing does).
  double target(double core_watts_at_reference, double memory_watts) const;

 private:
  // Static power and power scale at each whole clock step in [min clock, max clock], ascending
  // (shared by copies: a replayed step copies the governor).
  struct StepTable {
    std::vector<double> clocks, static_watts, scale;
  };
  static std::shared_ptr<const StepTable> step_table(const GpuPowerParams& params);
  double quantise(double clock) const;
  // target() by bisection over the clock range, then quantised.
  double bisect(double core_watts_at_reference, double memory_watts) const;

  GpuPowerParams params_;
  std::shared_ptr<const StepTable> steps_;
  double clock_;
  double core_average_ = 0;    // watts, SM-domain dynamic power at the reference clock
  double memory_average_ = 0;  // watts
  double weight_ = 0;          // weight of the history in the averages (1: fully informed)
};

}  // namespace hwsim
