#pragma once
// Which data objects (operand panels, tensor blocks) are resident in L2: a write-back,
// write-allocate LRU by bytes. A tile model asks at CTA start how many of its operand bytes hit;
// misses are fetched from HBM and become resident. Writes allocate dirty objects; evicting a
// dirty object owes its bytes to HBM (write-back). Objects with a negative id are streaming data
// that is never reused (reads always miss and do not allocate).
#include <cstdint>
#include <list>
#include <unordered_map>

namespace hwsim {

struct L2Traffic {
  double miss_bytes = 0;       // read from HBM
  double writeback_bytes = 0;  // dirty bytes evicted to HBM to make room
};

class L2Residency {
 public:
  explicit L2Residency(double capacity_bytes) : capacity_(capacity_bytes) { where_.reserve(4096); }

  // Reads `bytes` of object `id` starting at byte `offset` of the object. An object holds one
  // contiguous byte range; bytes outside it miss, and the range grows to cover what was touched
  // (or is replaced when the new bytes are disjoint from it).
  L2Traffic read(std::int64_t id, double bytes, double offset = 0);
  // Writes `bytes` of object `id` at `offset` (allocates it dirty).
  L2Traffic write(std::int64_t id, double bytes, double offset = 0);
  bool resident(std::int64_t id) const { return where_.count(id) != 0; }
  double resident_bytes() const { return used_; }

 private:
  struct Entry {
    std::int64_t id;
    double begin, end;  // resident byte range of the object
    bool dirty;
    double bytes() const { return end - begin; }
  };
  // Makes [begin, end) of `id` resident (most recent); returns the bytes that were not resident
  // before in `missed`, and the write-back bytes of the evictions.
  double insert(std::int64_t id, double begin, double end, bool dirty, double* missed);
  double evict_to_fit();  // evicts least recent entries until within capacity; write-back bytes
  double capacity_;
  double used_ = 0;
  std::list<Entry> lru_;  // front = most recent
  std::unordered_map<std::int64_t, std::list<Entry>::iterator> where_;
};

}  // namespace hwsim
