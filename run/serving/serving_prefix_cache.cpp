#include "run/serving/serving_prefix_cache.h"

#include <algorithm>

namespace hwsim {

std::int64_t PrefixCache::chain(std::int64_t group, std::int64_t limit) const {
  std::int64_t n = 0;
  while (n < limit && entries_.count({group, n})) ++n;
  return n;
}

std::int64_t PrefixCache::evictable_among(std::int64_t group, std::int64_t n) const {
  std::int64_t free = 0;
  for (std::int64_t i = 0; i < n; ++i) free += entries_.at({group, i}).refs == 0 ? 1 : 0;
  return free;
}

void PrefixCache::acquire(std::size_t holder, std::int64_t group, std::int64_t n) {
  std::vector<Key>& held = held_[holder];
  for (std::int64_t i = 0; i < n; ++i) {
    Key key{group, i};
    Entry& e = entries_.at(key);
    if (e.refs++ == 0) free_.erase({e.freed, key});
    held.push_back(key);
  }
}

bool PrefixCache::insert(std::size_t holder, Key key) {
  if (entries_.count(key)) return false;
  entries_[key].refs = 1;
  held_[holder].push_back(key);
  return true;
}

void PrefixCache::release(std::size_t holder) {
  auto it = held_.find(holder);
  if (it == held_.end()) return;
  std::vector<Key> keys = std::move(it->second);
  held_.erase(it);
  std::sort(keys.begin(), keys.end());
  for (auto k = keys.rbegin(); k != keys.rend(); ++k) {  // the tail first: it is evicted first
    Entry& e = entries_.at(*k);
    if (--e.refs == 0) e.freed = ++clock_, free_.insert({e.freed, *k});
  }
}

void PrefixCache::evict(std::int64_t n) {
  for (std::int64_t i = 0; i < n && !free_.empty(); ++i) {
    entries_.erase(free_.begin()->second);
    free_.erase(free_.begin());
    evictions_ += 1;
  }
}

std::int64_t PrefixCache::held_by(std::size_t holder) const {
  auto it = held_.find(holder);
  return it == held_.end() ? 0 : std::int64_t(it->second.size());
}

}  // namespace hwsim
