#include "sim/result_power.h"

#include "sim/power_builder.h"

#include <algorithm>
#include <cmath>

#include "sim/arith.h"
#include "sim/result.h"

namespace hwsim {
namespace {

void add_part(std::vector<EnergyPart>& parts, const std::string& name, double joules) {
  for (auto& p : parts)
    if (p.name == name) { p.joules += joules; return; }
  parts.push_back({name, joules});
}

}  // namespace

void PowerBuilder::cover(double t) {
  while (t > width_ * double(kPowerTraceSamples)) {
    for (std::size_t i = 0; i < kPowerTraceSamples; ++i) {
      bool inside = 2 * i + 1 < kPowerTraceSamples;
      joules_[i] = inside ? joules_[2 * i] + joules_[2 * i + 1] : 0.0;
      bucket_clock_time_[i] = inside ? bucket_clock_time_[2 * i] + bucket_clock_time_[2 * i + 1] : 0.0;
      bucket_clock_sum_[i] = inside ? bucket_clock_sum_[2 * i] + bucket_clock_sum_[2 * i + 1] : 0.0;
    }
    width_ *= 2;
  }
}

// A record's energy spread evenly over [a, b), and its clock weighted by the overlap.
void PowerBuilder::spread(double a, double b, double joules, double clock) {
  cover(b);
  end_ = std::max(end_, b);
  double power = joules / (b - a);
  auto first = std::size_t(std::clamp(std::floor(a / width_), 0.0, double(kPowerTraceSamples - 1)));
  for (std::size_t i = first; i < kPowerTraceSamples && double(i) * width_ < b; ++i) {
    double overlap = std::min(b, double(i + 1) * width_) - std::max(a, double(i) * width_);
    if (overlap <= 0) continue;
    joules_[i] += power * overlap;
    if (clock > 0) bucket_clock_time_[i] += overlap, bucket_clock_sum_[i] += clock * overlap;
  }
}

void PowerBuilder::add_step(const StepResult& step) {
  for (const auto& k : step.records) {
    // Energy by component: each record's parts by its schema's names; a record without parts (a
    // collective on a system's links) counts under "other".
    const std::size_t n = k.schema ? std::min(k.schema->energy_parts.size(), k.energy_parts.size()) : 0;
    for (std::size_t i = 0; i < n; ++i) add_part(parts_, k.schema->energy_parts[i], k.energy_parts[i]);
    if (n == 0 && k.energy != 0) add_part(parts_, "other", k.energy);
    throttled_ += k.throttled;
    if (k.clock > 0 && k.seconds > 0) {
      clock_time_ += k.seconds, clock_sum_ += k.clock * k.seconds;
      min_clock_ = min_clock_ > 0 ? std::min(min_clock_, k.clock) : k.clock;
    }
    double a = offset_ + k.start, b = offset_ + k.end;
    if (b > a) spread(a, b, k.energy, k.clock);
  }
  offset_ += step.seconds;
}

PowerMetrics PowerBuilder::finish(double seconds, double flops, double energy) const {
  PowerMetrics p;
  p.max_clock = max_clock_;
  p.by_part = parts_;
  p.throttled_seconds = throttled_;
  p.average_clock = ratio(clock_sum_, clock_time_);
  p.min_clock = min_clock_;
  p.throttled_share = ratio(throttled_, seconds);
  p.flops_per_joule = ratio(flops, energy);
  // The buckets up to the last record's end, the last one cut there.
  for (std::size_t i = 0; i < kPowerTraceSamples && double(i) * width_ < end_; ++i) {
    double start = double(i) * width_, stop = std::min(end_, double(i + 1) * width_);
    if (stop <= start) break;
    p.trace.push_back({start, stop, joules_[i] / (stop - start), ratio(bucket_clock_sum_[i], bucket_clock_time_[i])});
  }
  return p;
}

void derive_power(RunResult& r) {
  PowerBuilder builder(r.max_clock);
  for (const auto& step : r.steps) builder.add_step(step);
  r.power = builder.finish(r.seconds, r.flops, r.energy);
}

}  // namespace hwsim
