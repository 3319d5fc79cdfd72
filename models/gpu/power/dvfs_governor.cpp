#include "models/gpu/power/dvfs_governor.h"

#include <algorithm>
#include <cmath>

namespace hwsim {
namespace {
// Bisection steps for the target clock: 2^-50 of the clock range, far below one clock step.
constexpr int kBisections = 50;
}  // namespace

DvfsGovernor::DvfsGovernor(const GpuPowerParams& params)
    : params_(params), clock_(params.max_clock), weight_(params.sustained ? 0.0 : 1.0) {}

double DvfsGovernor::quantise(double clock) const {
  double step = params_.clock_step;
  double q = step > 0 ? std::floor(clock / step + 1e-9) * step : clock;
  return std::clamp(q, params_.min_clock, params_.max_clock);
}

double DvfsGovernor::target(double core_watts_at_reference, double memory_watts) const {
  if (!params_.governed()) return params_.max_clock;
  auto power = [&](double clock) {
    return params_.static_watts(clock) + core_watts_at_reference * params_.power_scale(clock) + memory_watts;
  };
  if (power(params_.max_clock) <= params_.limit) return params_.max_clock;
  double lo = params_.min_clock, hi = params_.max_clock;
  if (power(lo) >= params_.limit) return params_.min_clock;
  for (int i = 0; i < kBisections; ++i) {
    double mid = 0.5 * (lo + hi);
    (power(mid) > params_.limit ? hi : lo) = mid;
  }
  return quantise(lo);
}

double DvfsGovernor::observe(double seconds, double core_joules, double memory_joules) {
  if (seconds <= 0 || !params_.governed()) return clock_;
  double scale = params_.power_scale(clock_);
  double core_at_reference = scale > 0 ? core_joules / seconds / scale : 0;
  double alpha = params_.window > 0 ? 1 - std::exp(-seconds / params_.window) : 1.0;
  core_average_ += alpha * (core_at_reference - core_average_);
  memory_average_ += alpha * (memory_joules / seconds - memory_average_);
  weight_ += alpha * (1 - weight_);
  clock_ = target(core_average_ / weight_, memory_average_ / weight_);
  return clock_;
}

}  // namespace hwsim
