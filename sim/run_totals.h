#pragma once
// What records add to a run's summary, as sums that merge: ResultBuilder keeps one per simulated
// device and adds each record to its device's; a serving engine keeps one per distinct pass and
// adds it again wherever the pass is reused, which adds exactly what its records did. Derived once
// into the RunResult by ResultBuilder::finish (sim/result.h).
#include <map>
#include <vector>

#include "sim/result.h"

namespace hwsim {

struct RunTotals {
  double flops = 0, min_bytes = 0, roofline_floor = 0, energy = 0;
  double peak_memory_bandwidth = 0;      // the largest of the records'
  std::vector<LevelTraffic> traffic;     // per level, in first-seen order (the device's levels)
  TimeBreakdown breakdown;
  std::map<double, double> flops_by_peak;  // FLOPs per peak rate (the dtype holding most FLOPs)
  std::vector<Detail> details;           // roll-ups in first-seen order (Rollup::none left out)
  std::vector<double> detail_weight;     // seconds behind each time-weighted mean
  std::vector<EnergyPart> energy_parts;  // by component, in first-seen order; sum to `energy`
  double throttled = 0;                  // seconds the clock governor held the clock below max
  double over_limit = 0;                 // joules above the limit while the governor caught up
  double clock_time = 0, clock_sum = 0;  // seconds with a clock, and clock × those seconds
  double min_clock = 0;                  // the lowest record average (0: none reported)

  // Adds a finalized record (its seconds, floor and bound derived).
  void add(const WorkRecord& k);
  // Adds `o` × `scale` (a representative device standing for `scale` of the devices averaged).
  void add(const RunTotals& o, double scale = 1.0);
  // Adds `joules` under component `part` (an idle device's power, named "idle").
  void add_energy(const std::string& part, double joules);
};

}  // namespace hwsim
