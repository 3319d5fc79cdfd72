#include "models/memory/cache_residency.h"

#include <algorithm>

namespace hwsim {

namespace {
constexpr std::size_t kInitialTable = 4096;  // slots (a power of two); doubled at half full
}  // namespace

CacheResidency::CacheResidency(double capacity_bytes)
    : capacity_(capacity_bytes),
      capacity_quanta_(ByteCount::quanta(capacity_bytes + kCapacitySlack)),
      table_(kInitialTable, kNone),
      mask_(kInitialTable - 1) {}

void CacheResidency::map_insert(std::int64_t id, std::int32_t slot) {
  if (2 * (count_ + 1) > table_.size()) {  // grow: rehash every entry
    std::vector<std::int32_t> old = std::move(table_);
    table_.assign(old.size() * 2, kNone);
    mask_ = table_.size() - 1;
    for (std::int32_t s : old)
      if (s != kNone) {
        std::size_t i = hash_id(entries_[std::size_t(s)].id) & mask_;
        while (table_[i] != kNone) i = (i + 1) & mask_;
        table_[i] = s;
      }
  }
  std::size_t i = hash_id(id) & mask_;
  while (table_[i] != kNone) i = (i + 1) & mask_;
  table_[i] = slot;
}

// Linear probing without tombstones: the entries after the hole move back where they may.
void CacheResidency::map_erase(std::int64_t id) {
  std::size_t i = hash_id(id) & mask_;
  while (entries_[std::size_t(table_[i])].id != id) i = (i + 1) & mask_;
  table_[i] = kNone;
  for (std::size_t j = (i + 1) & mask_; table_[j] != kNone; j = (j + 1) & mask_) {
    std::size_t home = hash_id(entries_[std::size_t(table_[j])].id) & mask_;
    // The entry at j stays unless the hole at i lies between its home and j (cyclically).
    bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    table_[i] = table_[j];
    table_[j] = kNone;
    i = j;
  }
}

void CacheResidency::erase(std::int32_t slot) {
  unlink(slot);
  map_erase(entries_[std::size_t(slot)].id);
  free_.push_back(slot);
  --count_;
}

double CacheResidency::insert(std::int32_t at, std::int64_t id, double begin, double end, bool dirty, double* missed) {
  *missed = end - begin;
  if (at != kNone) {
    Entry& old = entries_[std::size_t(at)];
    double overlap = std::max(0.0, std::min(end, old.end) - std::max(begin, old.begin));
    *missed -= overlap;
    if (old.end >= begin && end >= old.begin) {  // touching or overlapping: grow the range
      begin = std::min(begin, old.begin);
      end = std::max(end, old.end);
      dirty = dirty || old.dirty;
    }
    if (end - begin <= capacity_) {
      // Update in place and make it the most recent.
      used_.subtract(bytes_of(old));
      old.begin = begin, old.end = end, old.dirty = dirty;
      used_.add(bytes_of(old));
      if (newest_ != at) {
        unlink(at);
        link_front(at);
      }
      return evict_to_fit();
    }
    used_.subtract(bytes_of(old));
    erase(at);
  }
  if (end - begin > capacity_) {  // cannot stay: written through
    record(Entry{id, begin, end, dirty, kNone, kNone});
    return dirty ? end - begin : 0;
  }
  std::int32_t slot;
  if (free_.empty()) {
    slot = std::int32_t(entries_.size());
    entries_.push_back(Entry{id, begin, end, dirty, kNone, kNone});
  } else {
    slot = free_.back();
    free_.pop_back();
    entries_[std::size_t(slot)] = Entry{id, begin, end, dirty, kNone, kNone};
  }
  map_insert(id, slot);
  ++count_;
  link_front(slot);
  used_.add(bytes_of(entries_[std::size_t(slot)]));
  return evict_to_fit();
}

double CacheResidency::evict_over() {
  double written_back = 0;
  while (used_.above(capacity_quanta_) && count_ > 1) {
    std::int32_t slot = oldest_;
    const Entry& victim = entries_[std::size_t(slot)];
    if (victim.dirty) written_back += victim.bytes();
    record(victim);
    used_.subtract(bytes_of(victim));
    erase(slot);
  }
  return written_back;
}

double CacheResidency::clean_all() {
  double bytes = 0;
  for (std::int32_t slot = newest_; slot != kNone; slot = entries_[std::size_t(slot)].older) {
    Entry& e = entries_[std::size_t(slot)];
    if (!e.dirty) continue;
    bytes += e.bytes();
    record(e);
    e.dirty = false;
  }
  return bytes;
}

CacheResidency::Contents CacheResidency::contents() const {
  Contents c;
  c.held.reserve(count_);
  for (std::int32_t s = newest_; s != kNone; s = entries_[std::size_t(s)].older) {
    const Entry& e = entries_[std::size_t(s)];
    c.held.push_back({e.id, e.begin, e.end, e.dirty});
  }
  return c;
}

void CacheResidency::set_contents(const Contents& c) {
  entries_.clear();
  free_.clear();
  std::fill(table_.begin(), table_.end(), kNone);
  newest_ = oldest_ = kNone;
  count_ = 0;
  used_.clear();
  for (auto it = c.held.rbegin(); it != c.held.rend(); ++it) {  // oldest first: each becomes the newest
    auto slot = std::int32_t(entries_.size());
    entries_.push_back(Entry{it->id, it->begin, it->end, it->dirty, kNone, kNone});
    map_insert(it->id, slot);
    link_front(slot);
    ++count_;
    used_.add(bytes_of(entries_.back()));
  }
}

}  // namespace hwsim
