#include "sim/run_totals.h"

#include <algorithm>

namespace hwsim {
namespace {

void add_traffic(std::vector<LevelTraffic>& into, const std::string& level, double bytes) {
  for (auto& have : into)
    if (have.level == level) {
      have.bytes += bytes;
      return;
    }
  into.push_back({level, bytes});
}

// The roll-up of detail `key` (found by key, first-seen order; added when new).
std::size_t roll_up(RunTotals& t, const std::string& key, Rollup rollup) {
  std::size_t i = 0;
  while (i < t.details.size() && t.details[i].key != key) ++i;
  if (i == t.details.size()) {
    t.details.push_back({key, 0, rollup});
    t.detail_weight.push_back(0);
  }
  return i;
}

void add_part(std::vector<EnergyPart>& parts, const std::string& name, double joules) {
  for (auto& p : parts)
    if (p.name == name) {
      p.joules += joules;
      return;
    }
  parts.push_back({name, joules});
}

void add_breakdown(TimeBreakdown& into, const TimeBreakdown& b, double scale) {
  into.compute += b.compute * scale;
  into.memory += b.memory * scale;
  into.communication += b.communication * scale;
  into.overhead += b.overhead * scale;
  into.idle += b.idle * scale;
}

}  // namespace

void RunTotals::add_energy(const std::string& part, double joules) {
  energy += joules;
  add_part(energy_parts, part, joules);
}

void RunTotals::add(const WorkRecord& k) {
  flops += k.flops;
  min_bytes += k.min_bytes;
  for (std::size_t j = 0; j < k.traffic.size(); ++j) add_traffic(traffic, k.schema->levels[j], k.traffic[j]);
  roofline_floor += k.roofline_floor;
  energy += k.energy;
  add_breakdown(breakdown, k.breakdown, 1.0);
  flops_by_peak[k.peak_flop_rate] += k.flops;
  peak_memory_bandwidth = std::max(peak_memory_bandwidth, k.peak_memory_bandwidth);
  for (std::size_t j = 0; j < k.details.size(); ++j) {
    const DetailKey& declared = k.schema->details[j];
    if (declared.rollup == Rollup::none) continue;
    std::size_t i = roll_up(*this, declared.key, declared.rollup);
    if (declared.rollup == Rollup::sum) details[i].value += k.details[j];
    else details[i].value += k.details[j] * k.seconds, detail_weight[i] += k.seconds;
  }
  // Energy by component: the record's parts by its schema's names; a record without parts (a
  // collective on a system's links) counts under "other".
  const std::size_t n = k.schema ? std::min(k.schema->energy_parts.size(), k.energy_parts.size()) : 0;
  for (std::size_t i = 0; i < n; ++i) add_part(energy_parts, k.schema->energy_parts[i], k.energy_parts[i]);
  if (n == 0 && k.energy != 0) add_part(energy_parts, "other", k.energy);
  throttled += k.throttled;
  over_limit += k.over_limit;
  if (k.clock > 0 && k.seconds > 0) {
    clock_time += k.seconds, clock_sum += k.clock * k.seconds;
    min_clock = min_clock > 0 ? std::min(min_clock, k.clock) : k.clock;
  }
}

void RunTotals::add(const RunTotals& o, double scale) {
  flops += o.flops * scale;
  min_bytes += o.min_bytes * scale;
  roofline_floor += o.roofline_floor * scale;
  energy += o.energy * scale;
  peak_memory_bandwidth = std::max(peak_memory_bandwidth, o.peak_memory_bandwidth);
  for (const auto& t : o.traffic) add_traffic(traffic, t.level, t.bytes * scale);
  add_breakdown(breakdown, o.breakdown, scale);
  for (const auto& [peak, f] : o.flops_by_peak) flops_by_peak[peak] += f * scale;
  for (std::size_t j = 0; j < o.details.size(); ++j) {  // a mean's weighted sum and its weight
    std::size_t i = roll_up(*this, o.details[j].key, o.details[j].rollup);
    details[i].value += o.details[j].value * scale;
    detail_weight[i] += o.detail_weight[j] * scale;
  }
  for (const auto& p : o.energy_parts) add_part(energy_parts, p.name, p.joules * scale);
  throttled += o.throttled * scale;
  over_limit += o.over_limit * scale;
  clock_time += o.clock_time * scale, clock_sum += o.clock_sum * scale;
  if (o.min_clock > 0) min_clock = min_clock > 0 ? std::min(min_clock, o.min_clock) : o.min_clock;
}

}  // namespace hwsim
