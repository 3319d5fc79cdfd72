#pragma once
// Which data objects (operand panels, tensor blocks) are resident in one cached memory level (a
// GPU's L2, an Infinity Cache, a TPU's CMEM): a write-back, write-allocate LRU by bytes. A device
// keeps one per cached level (DeviceInfo::memory, `cached`). A model asks how many of its operand
// bytes hit; misses are fetched from the next level out and become resident. Writes allocate
// dirty objects; evicting a dirty object owes its bytes to the next level (write-back). Objects with a negative id are streaming data
// that is never reused (reads always miss and do not allocate).
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

namespace hwsim {

struct CacheTraffic {
  double miss_bytes = 0;       // read from the next level out
  double writeback_bytes = 0;  // dirty bytes evicted to the next level out to make room
};

// A dirty byte range of one object that left a cache level (for a farther cache to take in).
struct WrittenBack {
  std::int64_t id;
  double begin, end;
};

class CacheResidency {
 public:
  explicit CacheResidency(double capacity_bytes) : capacity_(capacity_bytes) { where_.reserve(4096); }

  // Reads `bytes` of object `id` starting at byte `offset` of the object. An object holds one
  // contiguous byte range; bytes outside it miss, and the range grows to cover what was touched
  // (or is replaced when the new bytes are disjoint from it).
  CacheTraffic read(std::int64_t id, double bytes, double offset = 0);
  // Writes `bytes` of object `id` at `offset` (allocates it dirty).
  CacheTraffic write(std::int64_t id, double bytes, double offset = 0);
  bool resident(std::int64_t id) const { return where_.count(id) != 0; }
  // From now on, every dirty range this level writes back (evicted, or too large to stay) is also
  // appended to `sink` (nullptr: not recorded), so a farther cache can allocate it.
  void record_write_backs(std::vector<WrittenBack>* sink) { sink_ = sink; }
  // Writes every dirty object back (a release at kernel end); they stay resident, clean. Returns
  // the bytes (recorded in the sink as well).
  double clean_all();
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
  void record(const Entry& e) { if (sink_ && e.dirty) sink_->push_back({e.id, e.begin, e.end}); }
  double capacity_;
  double used_ = 0;
  std::vector<WrittenBack>* sink_ = nullptr;
  std::list<Entry> lru_;  // front = most recent
  std::unordered_map<std::int64_t, std::list<Entry>::iterator> where_;
};

}  // namespace hwsim
