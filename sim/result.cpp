#include "sim/result.h"
#include "sim/arith.h"

#include <algorithm>
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

}  // namespace

void finalize_record(WorkRecord& k, double fastest_level) {
  k.seconds = k.end - k.start;
  k.memory_bytes = k.traffic.empty() ? 0 : k.traffic.back();
  double compute_floor = ratio(k.flops, k.peak_flop_rate);
  double memory_floor = ratio(k.min_bytes, k.peak_memory_bandwidth);
  if (fastest_level > 0 && !k.traffic.empty() && k.memory_bytes < k.min_bytes)
    memory_floor = std::max(ratio(k.memory_bytes, k.peak_memory_bandwidth), k.min_bytes / fastest_level);
  k.roofline_floor = std::max(compute_floor, memory_floor);
  k.arithmetic_intensity = ratio(k.flops, k.min_bytes);
  k.ridge_point = ratio(k.peak_flop_rate, k.peak_memory_bandwidth);
  // A record with neither FLOPs nor bytes on the device (a collective on the links) is bound by
  // what it waited on.
  if (k.roofline_floor == 0 && k.breakdown.communication > 0) k.bound = "communication";
  else if (k.roofline_floor == 0 && k.op_class == kRecordedClass) k.bound = kRecordedClass;
  else k.bound = compute_floor >= memory_floor ? "compute" : "memory";
  k.achieved_flop_rate = ratio(k.flops, k.seconds);
  k.memory_bandwidth_achieved = ratio(k.memory_bytes, k.seconds);
}


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

}  // namespace hwsim
