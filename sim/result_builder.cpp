#include "sim/result_builder.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/arith.h"

namespace hwsim {

ResultBuilder::ResultBuilder(const std::vector<std::string>& memory_levels, std::vector<double> ranks,
                             double idle_power, const std::vector<double>& level_bandwidth)
    : levels_(memory_levels), ranks_(std::move(ranks)), idle_power_(idle_power),
      fastest_level_(level_bandwidth.empty() ? 0 : *std::max_element(level_bandwidth.begin(), level_bandwidth.end())) {
  if (ranks_.empty()) ranks_ = {1.0};
  total_ranks_ = std::accumulate(ranks_.begin(), ranks_.end(), 0.0);
  devices_.resize(ranks_.size());
  for (auto& d : devices_)
    for (const auto& level : levels_) d.traffic.push_back({level, 0});
}

void ResultBuilder::charge_idle(std::size_t device, double seconds, double a, double b) {
  if (idle_power_ <= 0 || seconds <= 0) return;
  devices_[device].add_energy("idle", idle_power_ * seconds);
  trace_.spread(a, b, idle_power_ * seconds * scale(device), 0);
}

void ResultBuilder::add_step(StepResult& step) {
  const double offset = seconds_;
  seconds_ += step.seconds;
  // Per device: the time its records account for, and of it the time they price (a collective's
  // record prices its links, not the device).
  std::vector<double> record_time(devices_.size(), 0.0), priced_time(devices_.size(), 0.0);
  for (auto& k : step.records) {
    finalize_record(k, fastest_level_);
    auto d = std::size_t(k.device);
    record_time[d] += k.seconds - k.hidden;
    if (k.schema && !k.schema->energy_parts.empty()) priced_time[d] += k.seconds - k.hidden;
    devices_[d].add(k);
    trace_.spread(offset + k.start, offset + k.end, k.energy * scale(d), k.clock);
  }
  step.record_count = step.records.size();
  // Gaps between records: launch overhead on one device; on several, time a device waited (for
  // another pipeline stage or a collective's peers) is idle. The device draws its idle power over
  // the time no record prices, spread over the step.
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    double gap = std::max(0.0, step.seconds - record_time[d]);
    (devices_.size() == 1 ? devices_[d].breakdown.overhead : devices_[d].breakdown.idle) += gap;
    charge_idle(d, std::max(0.0, step.seconds - priced_time[d]), offset, offset + step.seconds);
  }
}

void ResultBuilder::add_span(std::size_t device, const RunTotals& work, double start, double end) {
  devices_[device].add(work);
  trace_.spread(start, end, work.energy * scale(device), ratio(work.clock_sum, work.clock_time));
}

void ResultBuilder::add_idle(std::size_t device, double start, double end) {
  if (!(end > start)) return;
  devices_[device].breakdown.idle += end - start;
  charge_idle(device, end - start, start, end);
}

namespace {
// The peak FLOP rate of the dtype holding most FLOPs.
double dominant_peak(const RunTotals& t) {
  double most = -1, peak = 0;
  for (const auto& [rate, flops] : t.flops_by_peak)
    if (flops > most) most = flops, peak = rate;
  return peak;
}

PowerMetrics power_of(const RunTotals& t, const RunResult& r, std::vector<PowerSample> trace) {
  PowerMetrics p;
  p.max_clock = r.max_clock;
  p.by_part = t.energy_parts;
  p.throttled_seconds = t.throttled;
  // Clocks are whole hertz: the time-weighted mean to the hertz (1.98 GHz, not 1979999999.9999979).
  p.average_clock = std::round(ratio(t.clock_sum, t.clock_time));
  p.min_clock = t.min_clock;
  p.throttled_share = ratio(t.throttled, r.seconds);
  p.over_limit_joules = t.over_limit;
  p.flops_per_joule = ratio(r.flops, r.energy);
  p.trace = std::move(trace);
  return p;
}
}  // namespace

void ResultBuilder::finish(RunResult& r, double span) const {
  RunTotals t;
  double floor = 0;
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    t.add(devices_[d], scale(d));
    floor = std::max(floor, devices_[d].roofline_floor);  // each device's records run one at a time
  }
  if (idle_power_ > 0 && std::none_of(t.energy_parts.begin(), t.energy_parts.end(),
                                      [](const EnergyPart& p) { return p.name == "idle"; }))
    t.energy_parts.push_back({"idle", 0});
  r.seconds = span >= 0 ? span : seconds_;
  r.devices = total_ranks_;
  r.flops = t.flops;
  r.min_bytes = t.min_bytes;
  r.roofline_floor = floor;
  r.energy = t.energy;
  r.traffic = t.traffic;
  r.breakdown = t.breakdown;
  r.peak_memory_bandwidth = t.peak_memory_bandwidth;
  r.peak_flop_rate = dominant_peak(t);
  r.memory_bytes = r.traffic.empty() ? 0 : r.traffic.back().bytes;
  r.bandwidth.clear();
  for (const auto& level : r.traffic) r.bandwidth.push_back(ratio(level.bytes, r.seconds));
  r.details = t.details;
  for (std::size_t i = 0; i < r.details.size(); ++i)
    if (r.details[i].rollup == Rollup::time_mean) r.details[i].value = ratio(r.details[i].value, t.detail_weight[i]);
  r.achieved_flop_rate = ratio(r.flops, r.seconds);
  r.times_floor = ratio(r.seconds, r.roofline_floor);
  r.average_power = ratio(r.energy, r.seconds);
  r.above_tdp = r.tdp > 0 && r.average_power > r.tdp;
  r.percent_of_peak = r.peak_flop_rate > 0 ? 100.0 * r.achieved_flop_rate / r.peak_flop_rate : 0;
  r.memory_bandwidth_achieved = ratio(r.memory_bytes, r.seconds);
  r.arithmetic_intensity = ratio(r.flops, r.min_bytes);
  r.ridge_point = ratio(r.peak_flop_rate, r.peak_memory_bandwidth);
  r.bound = r.arithmetic_intensity >= r.ridge_point ? "compute" : "memory";
  if (r.flops == 0 && r.min_bytes == 0 && r.breakdown.communication > 0) r.bound = "communication";
  r.power = power_of(t, r, trace_.samples());
}

void finalize(RunResult& r) {
  std::size_t devices = 1;
  for (const auto& step : r.steps)
    for (const auto& k : step.records) devices = std::max(devices, std::size_t(k.device) + 1);
  ResultBuilder builder(r.memory_levels, std::vector<double>(devices, 1.0), r.idle_power, r.memory_level_bandwidth);
  for (auto& step : r.steps) builder.add_step(step);
  builder.finish(r);
}

}  // namespace hwsim
