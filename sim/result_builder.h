#pragma once
// Derives a run's summary (RunResult's derived fields and power figures) from its work, the same
// way for every runner: steps one after another (one chip, a system's stages) or work placed on the
// run's timeline (serving passes). Records are added as their step ends, so a long run's records
// may be dropped once added. The summary is one device's: sums kept per simulated device, then
// averaged over the devices they stand for; a device's idle power is charged over the time none
// of its work covers, so energy is the records' plus idle and sums to its components.
#include <string>
#include <vector>

#include "sim/power_trace.h"
#include "sim/result.h"
#include "sim/run_totals.h"

namespace hwsim {

class ResultBuilder {
 public:
  // `memory_levels`: the device's, near → far. `ranks[d]`: the devices simulated device d stands
  // for ({1} on one chip; a system's stage: its tp·ep·dp ranks; a serving instance: its tp).
  // `idle_power`: watts one device draws with nothing running (0: not modelled). `level_bandwidth`:
  // the levels' datasheet bytes/s (the records' floors: finalize_record).
  ResultBuilder(const std::vector<std::string>& memory_levels, std::vector<double> ranks, double idle_power,
                const std::vector<double>& level_bandwidth = {});

  // The next step on the timeline: derives its records' fields (seconds, floor, bound, rates),
  // sets its record_count and adds each record to its device (WorkRecord::device); the time a
  // device's records leave uncovered is idle (overhead on one device: launch gaps).
  void add_step(StepResult& step);
  // Work already summed (a serving pass, simulated or reused) on device `device` over [start, end).
  void add_span(std::size_t device, const RunTotals& work, double start, double end);
  // Device `device` did nothing over [start, end) (add_span's runs: the gaps between passes).
  void add_idle(std::size_t device, double start, double end);

  // Sets every derived field of `r` (r.steps itself is left as it is). `span`: the run's seconds
  // when its work was placed with add_span; otherwise the steps' seconds summed.
  void finish(RunResult& r, double span = -1) const;

  // What simulated device `device` did so far (its records' sums, its idle time and energy).
  const RunTotals& device_totals(std::size_t device) const { return devices_[device]; }
  std::size_t devices() const { return devices_.size(); }

 private:
  double scale(std::size_t device) const { return ranks_[device] / total_ranks_; }
  // Idle power over `seconds` of `device`, drawn in the power trace over [a, b).
  void charge_idle(std::size_t device, double seconds, double a, double b);

  std::vector<std::string> levels_;
  std::vector<double> ranks_;
  double total_ranks_ = 0, idle_power_ = 0, fastest_level_ = 0;
  double seconds_ = 0;                  // steps' seconds summed
  std::vector<RunTotals> devices_;      // per simulated device
  PowerTrace trace_;                    // per device (each simulated device's share)
};

}  // namespace hwsim
