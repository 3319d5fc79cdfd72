#pragma once
// Which data objects (operand panels, tensor blocks) are resident in one cached memory level (a
// GPU's L2, an Infinity Cache, a TPU's CMEM): a write-back, write-allocate LRU by bytes. A device
// keeps one per cached level (DeviceInfo::memory, `cached`). A model asks how many of its operand
// bytes hit; misses are fetched from the next level out and become resident. Writes allocate
// dirty objects; evicting a dirty object owes its bytes to the next level (write-back). Objects with a negative id are streaming data
// that is never reused (reads always miss and do not allocate).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/exact_sum.h"

namespace hwsim {

struct CacheTraffic {
  double miss_bytes = 0;       // read from the next level out
  double writeback_bytes = 0;  // dirty bytes evicted to the next level out to make room
};

// A dirty byte range of one object that left a cache level (for a farther cache to take in).
struct WrittenBack {
  std::int64_t id;
  double begin, end;
  bool operator==(const WrittenBack&) const = default;
};

class CacheResidency {
 public:
  explicit CacheResidency(double capacity_bytes);

  // Reads `bytes` of object `id` starting at byte `offset` of the object. An object holds one
  // contiguous byte range; bytes outside it miss, and the range grows to cover what was touched
  // (or is replaced when the new bytes are disjoint from it).
  CacheTraffic read(std::int64_t id, double bytes, double offset = 0) {
    if (id < 0) return {bytes, 0};
    std::int32_t at = find(id);
    if (held(at, offset, offset + bytes, false)) return {0, 0};
    double missed = 0;
    double written_back = insert(at, id, offset, offset + bytes, false, &missed);
    return {missed, written_back};
  }
  // Writes `bytes` of object `id` at `offset` (allocates it dirty).
  CacheTraffic write(std::int64_t id, double bytes, double offset = 0) {
    if (id < 0) return {0, bytes};  // streaming store: straight through to HBM
    std::int32_t at = find(id);
    if (held(at, offset, offset + bytes, true)) return {0, 0};
    double missed = 0;
    return {0, insert(at, id, offset, offset + bytes, true, &missed)};
  }
  bool resident(std::int64_t id) const { return find(id) != kNone; }
  // From now on, every dirty range this level writes back (evicted, or too large to stay) is also
  // appended to `sink` (nullptr: not recorded), so a farther cache can allocate it.
  void record_write_backs(std::vector<WrittenBack>* sink) { sink_ = sink; }
  // Writes every dirty object back (a release at kernel end); they stay resident, clean. Returns
  // the bytes (recorded in the sink as well).
  double clean_all();
  double resident_bytes() const { return used_.value(); }

  // Everything later accesses depend on: the objects held, most recent first (the bytes held are
  // their exact sum). Two levels of equal contents (and capacity) answer every access alike.
  struct Held {
    std::int64_t id;
    double begin, end;
    bool dirty;
    bool operator==(const Held&) const = default;
  };
  struct Contents {
    std::vector<Held> held;
    bool operator==(const Contents&) const = default;
  };
  Contents contents() const;
  // The level holds `c` and nothing else (a recorded state put back).
  void set_contents(const Contents& c);

 private:
  // Entries live in a vector, linked most recent first, with their slots reused; an open-addressing
  // table maps ids to slots. Nothing is allocated per access once the level is warm: a GPU step
  // makes hundreds of thousands of accesses.
  static constexpr std::int32_t kNone = -1;
  struct Entry {
    std::int64_t id;
    double begin, end;  // resident byte range of the object
    bool dirty;
    std::int32_t newer = kNone, older = kNone;  // LRU neighbours
    double bytes() const { return end - begin; }
  };
  // Makes [begin, end) of `id` (found at slot `at`, or kNone) resident (most recent); returns the
  // bytes that were not resident before in `missed`, and the write-back bytes of the evictions.
  double insert(std::int32_t at, std::int64_t id, double begin, double end, bool dirty, double* missed);
  // When the entry at `at` holds [begin, end) whole, it becomes the most recent (dirty when
  // written) and true: what insert does then, without its arithmetic (nothing missed, the level's
  // bytes unchanged, nothing to evict: every access leaves the level within its capacity).
  bool held(std::int32_t at, double begin, double end, bool dirty) {
    if (at == kNone) return false;
    Entry& e = entries_[std::size_t(at)];
    if (!(begin >= e.begin && end <= e.end)) return false;
    e.dirty = e.dirty || dirty;
    if (newest_ != at) unlink(at), link_front(at);
    return true;
  }
  // Evicts least recent entries until within capacity; write-back bytes. Inline: most accesses
  // leave the level within its capacity.
  double evict_to_fit() { return used_.above(capacity_quanta_) ? evict_over() : 0.0; }
  double evict_over();
  void record(const Entry& e) { if (sink_ && e.dirty) sink_->push_back({e.id, e.begin, e.end}); }
  static std::size_t hash_id(std::int64_t id) {
    auto x = static_cast<std::uint64_t>(id);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return std::size_t(x);
  }
  std::int32_t find(std::int64_t id) const {  // slot of `id`, or kNone
    for (std::size_t i = hash_id(id) & mask_;; i = (i + 1) & mask_) {
      std::int32_t slot = table_[i];
      if (slot == kNone) return kNone;
      if (entries_[std::size_t(slot)].id == id) return slot;
    }
  }
  void link_front(std::int32_t slot) {
    Entry& e = entries_[std::size_t(slot)];
    e.newer = kNone;
    e.older = newest_;
    if (newest_ != kNone) entries_[std::size_t(newest_)].newer = slot;
    newest_ = slot;
    if (oldest_ == kNone) oldest_ = slot;
  }
  void unlink(std::int32_t slot) {
    Entry& e = entries_[std::size_t(slot)];
    if (e.newer != kNone) entries_[std::size_t(e.newer)].older = e.older;
    else newest_ = e.older;
    if (e.older != kNone) entries_[std::size_t(e.older)].newer = e.newer;
    else oldest_ = e.newer;
  }
  void erase(std::int32_t slot);             // unlinks, unmaps and frees the slot
  void map_insert(std::int64_t id, std::int32_t slot);
  void map_erase(std::int64_t id);
  // The bytes held: each entry's bytes rounded once and summed exactly, so the count is a function
  // of what is held, not of the order of the insertions and evictions that led there (a double
  // summed as they happen drifts in its last bits, and two histories that end holding the same
  // objects would then differ).
  using ByteCount = ExactSum<40, 8>;
  static ByteCount::Quanta bytes_of(const Entry& e) { return ByteCount::quanta(e.bytes()); }
  // A level holding within this many bytes of its capacity is full, not over: byte ranges are
  // differences of offsets up to ~1e11 (in doubles, ~1e-5 B of rounding each), so a level filled
  // exactly by whole blocks whose pieces have fractional bounds would otherwise count a few
  // billionths of a byte over and evict one block more.
  static constexpr double kCapacitySlack = 1.0 / 64;
  double capacity_;
  ByteCount::Quanta capacity_quanta_;  // capacity + kCapacitySlack
  ByteCount used_;
  std::vector<WrittenBack>* sink_ = nullptr;
  std::vector<Entry> entries_;
  std::vector<std::int32_t> free_;
  std::int32_t newest_ = kNone, oldest_ = kNone;
  std::size_t count_ = 0;
  std::vector<std::int32_t> table_;  // open addressing, linear probing: slot or kNone
  std::size_t mask_ = 0;
};

}  // namespace hwsim
