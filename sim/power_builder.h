#pragma once
// Derives a run's power figures (PowerMetrics) step by step, as each step's records pass, so a run
// that streams its records and drops them (a long generate) reports the same figures, bit for bit,
// as one that keeps them: derive_power() runs this over kept steps, the step runner as they finish.
#include <cstddef>
#include <vector>

#include "sim/result.h"

namespace hwsim {

class PowerBuilder {
 public:
  explicit PowerBuilder(double max_clock) : max_clock_(max_clock) {}
  // The next step (its records finalized: seconds, energy, clock, throttled); steps follow one
  // another on the run's timeline.
  void add_step(const StepResult& step);
  // The figures, given the run's totals (seconds, FLOPs, energy).
  PowerMetrics finish(double seconds, double flops, double energy) const;

 private:
  // Power over time: kPowerTraceSamples buckets of one width, doubled (pairs merged) whenever a
  // record ends past the last, so the buckets cover the run at a resolution fixed by its length.
  static constexpr double kFirstBucketSeconds = 1e-9;
  void cover(double t);
  void spread(double a, double b, double joules, double clock);

  double max_clock_;
  std::vector<EnergyPart> parts_;
  double throttled_ = 0, clock_time_ = 0, clock_sum_ = 0, min_clock_ = 0;
  double offset_ = 0, width_ = kFirstBucketSeconds, end_ = 0;
  std::vector<double> joules_ = std::vector<double>(kPowerTraceSamples, 0.0);
  std::vector<double> bucket_clock_time_ = std::vector<double>(kPowerTraceSamples, 0.0);
  std::vector<double> bucket_clock_sum_ = std::vector<double>(kPowerTraceSamples, 0.0);
};

}  // namespace hwsim
