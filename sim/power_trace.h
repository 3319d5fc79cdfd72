#pragma once
// A run's power over time (PowerMetrics::trace), built as work is placed on the run's timeline:
// kPowerTraceSamples buckets of one width, doubled (pairs merged) whenever work ends past the last,
// so the buckets cover the run at a resolution fixed by its length.
#include <vector>

#include "sim/result_power.h"

namespace hwsim {

class PowerTrace {
 public:
  // `joules` spread evenly over [a, b) seconds of the run, at `clock` Hz (0: none reported).
  void spread(double a, double b, double joules, double clock);
  // The buckets up to the last work's end, the last one cut there.
  std::vector<PowerSample> samples() const;

 private:
  static constexpr double kFirstBucketSeconds = 1e-9;
  void cover(double t);

  double width_ = kFirstBucketSeconds, end_ = 0;
  std::vector<double> joules_ = std::vector<double>(kPowerTraceSamples, 0.0);
  std::vector<double> clock_time_ = std::vector<double>(kPowerTraceSamples, 0.0);
  std::vector<double> clock_sum_ = std::vector<double>(kPowerTraceSamples, 0.0);
};

}  // namespace hwsim
