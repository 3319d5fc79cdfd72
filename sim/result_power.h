#pragma once
// Power and energy figures of a run (part of RunResult), derived once by finalize() from the
// records: energy by component, average clock and the time the clock governor held it below its
// maximum, a power-over-time series, and energy-efficiency figures. Printers only format.
#include <string>
#include <vector>

namespace hwsim {

// One component of a device's energy ("static", "tensor_flops", "hbm", ...), joules over the run.
struct EnergyPart {
  std::string name;
  double joules = 0;
};

// The device's average power and clock over [start, end) seconds of the run (steps one after
// another, as the timeline draws them).
struct PowerSample {
  double start = 0, end = 0;
  double watts = 0;
  double clock = 0;  // Hz; 0 when the device reports no clock
};

// Samples are records merged into at most this many buckets of equal time.
inline constexpr std::size_t kPowerTraceSamples = 400;

struct PowerMetrics {
  std::vector<EnergyPart> by_part;  // the device's components in its own order; they sum to the
                                    // records' energy
  double max_clock = 0;             // Hz: the device's maximum (boost) clock; 0 = not modelled
  double average_clock = 0;         // Hz, time-weighted over records that report one
  double min_clock = 0;             // Hz, the lowest record average
  double throttled_seconds = 0;     // time the governor held the clock below max_clock
  double throttled_share = 0;       // throttled_seconds / seconds
  // Joules above the power limit in the control periods the clock governor's clock did not hold
  // (it sets each from those before: a sustained start's first runs at the max clock, and its
  // estimate settles over its window): the only energy a governed run may spend over limit ×
  // seconds, a transient that weighs in runs shorter than the window. 0 without a governor.
  double over_limit_joules = 0;
  double flops_per_joule = 0;       // perf/W: FLOP/s per watt
  std::vector<PowerSample> trace;   // power over time, at most kPowerTraceSamples buckets
};

}  // namespace hwsim
