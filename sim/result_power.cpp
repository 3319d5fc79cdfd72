#include "sim/result_power.h"

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

// Energy by component: each record's parts by its schema's names; a record without parts (a
// collective on a system's links) counts under "other".
std::vector<EnergyPart> energy_by_part(const RunResult& r) {
  std::vector<EnergyPart> parts;
  for (const auto& step : r.steps)
    for (const auto& k : step.records) {
      const std::size_t n = k.schema ? std::min(k.schema->energy_parts.size(), k.energy_parts.size()) : 0;
      double named = 0;
      for (std::size_t i = 0; i < n; ++i) add_part(parts, k.schema->energy_parts[i], k.energy_parts[i]), named += k.energy_parts[i];
      if (n == 0 && k.energy != 0) add_part(parts, "other", k.energy - named);
    }
  return parts;
}

// Records spread over equal buckets of the run's time: each bucket gets the energy of the part of
// every record inside it (a record's power is taken as even over its span) and the time-weighted
// clock of the records that report one.
std::vector<PowerSample> power_trace(const RunResult& r) {
  std::size_t records = 0;
  for (const auto& step : r.steps) records += step.records.size();
  std::size_t n = std::min(kPowerTraceSamples, records);
  if (n == 0 || r.seconds <= 0) return {};
  double width = r.seconds / double(n);
  std::vector<double> joules(n, 0.0), clock_time(n, 0.0), clock_sum(n, 0.0);
  double offset = 0;
  for (const auto& step : r.steps) {
    for (const auto& k : step.records) {
      double a = offset + k.start, b = offset + k.end;
      if (b <= a) continue;
      double power = k.energy / (b - a);
      auto first = std::size_t(std::clamp(std::floor(a / width), 0.0, double(n - 1)));
      for (std::size_t i = first; i < n && double(i) * width < b; ++i) {
        double overlap = std::min(b, double(i + 1) * width) - std::max(a, double(i) * width);
        if (overlap <= 0) continue;
        joules[i] += power * overlap;
        if (k.clock > 0) clock_time[i] += overlap, clock_sum[i] += k.clock * overlap;
      }
    }
    offset += step.seconds;
  }
  std::vector<PowerSample> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = {double(i) * width, double(i + 1) * width, joules[i] / width, ratio(clock_sum[i], clock_time[i])};
  return out;
}

}  // namespace

void derive_power(RunResult& r) {
  PowerMetrics& p = r.power;
  p = PowerMetrics{};
  p.max_clock = r.max_clock;
  p.by_part = energy_by_part(r);
  double clock_time = 0, clock_sum = 0;
  for (const auto& step : r.steps)
    for (const auto& k : step.records) {
      p.throttled_seconds += k.throttled;
      if (k.clock <= 0 || k.seconds <= 0) continue;
      clock_time += k.seconds, clock_sum += k.clock * k.seconds;
      p.min_clock = p.min_clock > 0 ? std::min(p.min_clock, k.clock) : k.clock;
    }
  p.average_clock = ratio(clock_sum, clock_time);
  p.throttled_share = ratio(p.throttled_seconds, r.seconds);
  p.flops_per_joule = ratio(r.flops, r.energy);
  p.trace = power_trace(r);
}

}  // namespace hwsim
