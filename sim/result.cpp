#include "sim/result.h"
#include "sim/arith.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace hwsim {

namespace {

double find_bytes(const std::vector<LevelTraffic>& traffic, std::string_view level) {
  for (const auto& t : traffic)
    if (t.level == level) return t.bytes;
  return 0;
}

// Index of `name` in `names`, or names.size().
template <class T, class Name>
std::size_t index_of(const std::vector<T>& names, std::string_view name, Name name_of) {
  std::size_t i = 0;
  while (i < names.size() && name_of(names[i]) != name) ++i;
  return i;
}

void add_traffic(std::vector<LevelTraffic>& into, const LevelTraffic& t) {
  for (auto& have : into)
    if (have.level == t.level) { have.bytes += t.bytes; return; }
  into.push_back(t);
}

void finalize_record(WorkRecord& k) {
  k.seconds = k.end - k.start;
  k.memory_bytes = k.traffic.empty() ? 0 : k.traffic.back();
  double compute_floor = ratio(k.flops, k.peak_flop_rate);
  double memory_floor = ratio(k.min_bytes, k.peak_memory_bandwidth);
  k.roofline_floor = std::max(compute_floor, memory_floor);
  k.arithmetic_intensity = ratio(k.flops, k.min_bytes);
  k.ridge_point = ratio(k.peak_flop_rate, k.peak_memory_bandwidth);
  k.bound = compute_floor >= memory_floor ? "compute" : "memory";
  k.achieved_flop_rate = ratio(k.flops, k.seconds);
  k.memory_bandwidth_achieved = ratio(k.memory_bytes, k.seconds);
}

void add_breakdown(TimeBreakdown& into, const TimeBreakdown& b) {
  into.compute += b.compute;
  into.memory += b.memory;
  into.communication += b.communication;
  into.overhead += b.overhead;
  into.idle += b.idle;
}

// Adds one record's detail to its roll-up (found by key, first-seen order).
void roll_up(std::vector<Detail>& out, std::vector<double>& weight, const Detail& d, double seconds) {
  std::size_t i = index_of(out, d.key, [](const Detail& o) -> std::string_view { return o.key; });
  if (i == out.size()) {
    out.push_back({d.key, 0, d.rollup});
    weight.push_back(0);
  }
  Detail& o = out[i];
  if (d.rollup == Rollup::sum) o.value += d.value;
  if (d.rollup == Rollup::time_mean) o.value += d.value * seconds, weight[i] += seconds;
}
}  // namespace

double WorkRecord::bytes_at(std::string_view level) const {
  if (!schema) return 0;
  std::size_t i = index_of(schema->levels, level, [](const std::string& n) -> std::string_view { return n; });
  return i < traffic.size() ? traffic[i] : 0;
}
double RunResult::bytes_at(std::string_view level) const { return find_bytes(traffic, level); }

double WorkRecord::detail(std::string_view key) const {
  if (!schema) return 0;
  std::size_t i = index_of(schema->details, key, [](const DetailKey& d) -> std::string_view { return d.key; });
  return i < details.size() ? details[i] : 0;
}
void WorkRecord::set_detail(std::string_view key, double value) {
  std::size_t i = schema ? index_of(schema->details, key, [](const DetailKey& d) -> std::string_view { return d.key; })
                         : 0;
  if (!schema || i >= details.size())
    throw std::logic_error("record '" + name + "': its schema has no detail '" + std::string(key) + "'");
  details[i] = value;
}

double RunResult::detail(std::string_view key) const {
  for (const auto& d : details)
    if (d.key == key) return d.value;
  return 0;
}

ResultBuilder::ResultBuilder(const std::vector<std::string>& memory_levels, std::size_t devices)
    : devices_(std::max<std::size_t>(1, devices)) {
  for (const auto& level : memory_levels) traffic_.push_back({level, 0});
}

void ResultBuilder::add_record(const WorkRecord& k) {
  flops_ += k.flops;
  min_bytes_ += k.min_bytes;
  for (std::size_t j = 0; j < k.traffic.size(); ++j) add_traffic(traffic_, {k.schema->levels[j], k.traffic[j]});
  roofline_floor_ += k.roofline_floor;
  energy_ += k.energy;
  add_breakdown(breakdown_, k.breakdown);
  flops_by_peak_[k.peak_flop_rate] += k.flops;
  peak_memory_bandwidth_ = std::max(peak_memory_bandwidth_, k.peak_memory_bandwidth);
  // Details by each one's rule (Rollup::none ones left out).
  for (std::size_t j = 0; j < k.details.size(); ++j) {
    const DetailKey& declared = k.schema->details[j];
    if (declared.rollup != Rollup::none)
      roll_up(details_, detail_weight_, {declared.key, k.details[j], declared.rollup}, k.seconds);
  }
}

void ResultBuilder::add_step(StepResult& step) {
  seconds_ += step.seconds;
  std::vector<double> record_time(devices_, 0.0);  // per device: the time its records account for
  for (auto& k : step.records) {
    finalize_record(k);
    record_time[std::size_t(k.device)] += k.seconds - k.hidden;
    add_record(k);
  }
  step.record_count = step.records.size();
  // Gaps between records: launch overhead on one device; on a system, time a device waited
  // (for another pipeline stage or a collective's peers) is idle.
  for (double t : record_time) (devices_ == 1 ? breakdown_.overhead : breakdown_.idle) += std::max(0.0, step.seconds - t);
}

void ResultBuilder::finish(RunResult& r) const {
  r.seconds = seconds_;
  r.flops = flops_;
  r.min_bytes = min_bytes_;
  r.roofline_floor = roofline_floor_;
  r.energy = energy_;
  r.traffic = traffic_;
  r.breakdown = breakdown_;
  r.peak_memory_bandwidth = peak_memory_bandwidth_;
  if (devices_ > 1) {  // per device on average, so the parts still sum to the run's time
    for (double* part : {&r.breakdown.compute, &r.breakdown.memory, &r.breakdown.communication, &r.breakdown.overhead,
                         &r.breakdown.idle})
      *part /= double(devices_);
  }
  double most = -1;
  for (const auto& [peak, flops] : flops_by_peak_)
    if (flops > most) most = flops, r.peak_flop_rate = peak;
  r.memory_bytes = r.traffic.empty() ? 0 : r.traffic.back().bytes;
  r.bandwidth.clear();
  for (const auto& t : r.traffic) r.bandwidth.push_back(ratio(t.bytes, r.seconds));
  r.details = details_;
  for (std::size_t i = 0; i < r.details.size(); ++i)
    if (r.details[i].rollup == Rollup::time_mean) r.details[i].value = ratio(r.details[i].value, detail_weight_[i]);
  r.achieved_flop_rate = ratio(r.flops, r.seconds);
  r.times_floor = ratio(r.seconds, r.roofline_floor);
  r.average_power = ratio(r.energy, r.seconds);
  r.above_tdp = r.tdp > 0 && r.average_power > r.tdp;
  r.percent_of_peak = r.peak_flop_rate > 0 ? 100.0 * r.achieved_flop_rate / r.peak_flop_rate : 0;
  r.memory_bandwidth_achieved = ratio(r.memory_bytes, r.seconds);
  r.arithmetic_intensity = ratio(r.flops, r.min_bytes);
  r.ridge_point = ratio(r.peak_flop_rate, r.peak_memory_bandwidth);
  r.bound = r.arithmetic_intensity >= r.ridge_point ? "compute" : "memory";
}

void finalize(RunResult& r) {
  std::size_t devices = 1;
  for (const auto& step : r.steps)
    for (const auto& k : step.records) devices = std::max(devices, std::size_t(k.device) + 1);
  ResultBuilder builder(r.memory_levels, devices);
  for (auto& step : r.steps) builder.add_step(step);
  builder.finish(r);
  derive_power(r);
}

}  // namespace hwsim
