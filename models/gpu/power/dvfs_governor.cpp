#include "models/gpu/power/dvfs_governor.h"

#include <algorithm>
#include <cmath>

namespace hwsim {
namespace {
// Bisection steps for the target clock: 2^-50 of the clock range, far below one clock step.
constexpr int kBisections = 50;
// A power within this share of the limit at a clock step is too close to call from the step
// table alone (the bisection, quantised, could land on either side): target() bisects instead.
// Outside this band the two agree exactly: the crossing is thousands of Hz from any step, the
// bisection's quantisation tolerance 1e-9 of a step.
constexpr double kTableBand = 1e-6;
}  // namespace

DvfsGovernor::DvfsGovernor(const GpuPowerParams& params)
    : params_(params), steps_(step_table(params)), clock_(params.max_clock), weight_(params.sustained ? 0.0 : 1.0) {}

std::shared_ptr<const DvfsGovernor::StepTable> DvfsGovernor::step_table(const GpuPowerParams& p) {
  auto t = std::make_shared<StepTable>();
  if (!p.governed() || !(p.clock_step > 0)) return t;
  for (double k = std::ceil(p.min_clock / p.clock_step); k * p.clock_step <= p.max_clock; k += 1) {
    double clock = k * p.clock_step;
    if (clock < p.min_clock) continue;
    t->clocks.push_back(clock);
    t->static_watts.push_back(p.static_watts(clock));
    t->scale.push_back(p.power_scale(clock));
  }
  return t;
}

double DvfsGovernor::quantise(double clock) const {
  double step = params_.clock_step;
  double q = step > 0 ? std::floor(clock / step + 1e-9) * step : clock;
  return std::clamp(q, params_.min_clock, params_.max_clock);
}

// The highest clock step whose power is within the limit, from the step table: the bisection's
// answer (see kTableBand), without its 50 evaluations of the power law.
double DvfsGovernor::target(double core_watts_at_reference, double memory_watts) const {
  if (!params_.governed()) return params_.max_clock;
  const StepTable& t = *steps_;
  auto power = [&](std::size_t k) { return t.static_watts[k] + core_watts_at_reference * t.scale[k] + memory_watts; };
  const std::size_t n = t.clocks.size();
  if (n == 0 || t.clocks[n - 1] != params_.max_clock || t.clocks[0] != params_.min_clock)
    return bisect(core_watts_at_reference, memory_watts);
  const double limit = params_.limit, band = kTableBand * limit;
  if (power(n - 1) <= limit) return params_.max_clock;
  if (power(0) >= limit) return params_.min_clock;
  std::size_t lo = 0, hi = n - 1;  // power(lo) < limit < power(hi)
  while (hi - lo > 1) {
    std::size_t mid = lo + (hi - lo) / 2;
    (power(mid) > limit ? hi : lo) = mid;
  }
  if (power(lo) > limit - band || power(hi) < limit + band) return bisect(core_watts_at_reference, memory_watts);
  return t.clocks[lo];
}

double DvfsGovernor::bisect(double core_watts_at_reference, double memory_watts) const {
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
