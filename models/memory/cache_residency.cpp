#include "models/memory/cache_residency.h"

#include <algorithm>

namespace hwsim {

CacheTraffic CacheResidency::read(std::int64_t id, double bytes, double offset) {
  if (id < 0) return {bytes, 0};
  double missed = 0;
  double written_back = insert(id, offset, offset + bytes, false, &missed);
  return {missed, written_back};
}

CacheTraffic CacheResidency::write(std::int64_t id, double bytes, double offset) {
  if (id < 0) return {0, bytes};  // streaming store: straight through to HBM
  double missed = 0;
  return {0, insert(id, offset, offset + bytes, true, &missed)};
}

double CacheResidency::insert(std::int64_t id, double begin, double end, bool dirty, double* missed) {
  *missed = end - begin;
  auto it = where_.find(id);
  if (it != where_.end()) {
    Entry& old = *it->second;
    double overlap = std::max(0.0, std::min(end, old.end) - std::max(begin, old.begin));
    *missed -= overlap;
    if (old.end >= begin && end >= old.begin) {  // touching or overlapping: grow the range
      begin = std::min(begin, old.begin);
      end = std::max(end, old.end);
      dirty = dirty || old.dirty;
    }
    if (end - begin <= capacity_) {
      // Update in place and make it the most recent.
      used_ += (end - begin) - old.bytes();
      old.begin = begin, old.end = end, old.dirty = dirty;
      lru_.splice(lru_.begin(), lru_, it->second);
      return evict_to_fit();
    }
    used_ -= old.bytes();
    lru_.erase(it->second);
    where_.erase(it);
  }
  if (end - begin > capacity_) {  // cannot stay: written through
    record(Entry{id, begin, end, dirty});
    return dirty ? end - begin : 0;
  }
  lru_.push_front(Entry{id, begin, end, dirty});
  where_.emplace(id, lru_.begin());
  used_ += end - begin;
  return evict_to_fit();
}

double CacheResidency::evict_to_fit() {
  double written_back = 0;
  while (used_ > capacity_ && lru_.size() > 1) {
    const Entry& victim = lru_.back();
    if (victim.dirty) written_back += victim.bytes();
    record(victim);
    used_ -= victim.bytes();
    where_.erase(victim.id);
    lru_.pop_back();
  }
  return written_back;
}

double CacheResidency::clean_all() {
  double bytes = 0;
  for (Entry& e : lru_) {
    if (!e.dirty) continue;
    bytes += e.bytes();
    record(e);
    e.dirty = false;
  }
  return bytes;
}

}  // namespace hwsim
