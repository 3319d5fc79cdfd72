#include "sim/result_power.h"

#include <algorithm>
#include <cmath>

#include "sim/arith.h"
#include "sim/power_trace.h"

namespace hwsim {

void PowerTrace::cover(double t) {
  while (t > width_ * double(kPowerTraceSamples)) {
    for (std::size_t i = 0; i < kPowerTraceSamples; ++i) {
      bool inside = 2 * i + 1 < kPowerTraceSamples;
      joules_[i] = inside ? joules_[2 * i] + joules_[2 * i + 1] : 0.0;
      clock_time_[i] = inside ? clock_time_[2 * i] + clock_time_[2 * i + 1] : 0.0;
      clock_sum_[i] = inside ? clock_sum_[2 * i] + clock_sum_[2 * i + 1] : 0.0;
    }
    width_ *= 2;
  }
}

void PowerTrace::spread(double a, double b, double joules, double clock) {
  if (!(b > a)) return;
  cover(b);
  end_ = std::max(end_, b);
  double power = joules / (b - a);
  auto first = std::size_t(std::clamp(std::floor(a / width_), 0.0, double(kPowerTraceSamples - 1)));
  for (std::size_t i = first; i < kPowerTraceSamples && double(i) * width_ < b; ++i) {
    double overlap = std::min(b, double(i + 1) * width_) - std::max(a, double(i) * width_);
    if (overlap <= 0) continue;
    joules_[i] += power * overlap;
    if (clock > 0) clock_time_[i] += overlap, clock_sum_[i] += clock * overlap;
  }
}

std::vector<PowerSample> PowerTrace::samples() const {
  std::vector<PowerSample> out;
  for (std::size_t i = 0; i < kPowerTraceSamples && double(i) * width_ < end_; ++i) {
    double start = double(i) * width_, stop = std::min(end_, double(i + 1) * width_);
    if (stop <= start) break;
    out.push_back({start, stop, joules_[i] / (stop - start), ratio(clock_sum_[i], clock_time_[i])});
  }
  return out;
}

}  // namespace hwsim
