#pragma once
// Which data objects (operand panels, tensors) are resident in L2, as an LRU by bytes. A tile
// model asks at CTA start how many of its operand bytes hit; misses are fetched from HBM and
// become resident. Objects with a negative id are streaming data that is never reused.
#include <cstdint>
#include <list>
#include <unordered_map>

namespace hwsim {

class L2Residency {
 public:
  explicit L2Residency(double capacity_bytes) : capacity_(capacity_bytes) {}

  // Touches `bytes` of object `id`; returns the bytes that missed (0 on a hit).
  double access(std::int64_t id, double bytes);
  // Makes `id` resident (a write that allocates in L2) without counting a miss.
  void install(std::int64_t id, double bytes);
  bool resident(std::int64_t id) const { return where_.count(id) != 0; }
  double resident_bytes() const { return used_; }

 private:
  void evict_to_fit();
  struct Entry { std::int64_t id; double bytes; };
  double capacity_;
  double used_ = 0;
  std::list<Entry> lru_;  // front = most recent
  std::unordered_map<std::int64_t, std::list<Entry>::iterator> where_;
};

}  // namespace hwsim
