#include "models/memory/l2_residency.h"

namespace hwsim {

double L2Residency::access(std::int64_t id, double bytes) {
  if (id < 0) return bytes;
  auto it = where_.find(id);
  if (it != where_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return 0;
  }
  install(id, bytes);
  return bytes;
}

void L2Residency::install(std::int64_t id, double bytes) {
  if (id < 0 || bytes > capacity_) return;
  auto it = where_.find(id);
  if (it != where_.end()) {
    used_ -= it->second->bytes;
    lru_.erase(it->second);
  }
  lru_.push_front(Entry{id, bytes});
  where_[id] = lru_.begin();
  used_ += bytes;
  evict_to_fit();
}

void L2Residency::evict_to_fit() {
  while (used_ > capacity_ && lru_.size() > 1) {
    used_ -= lru_.back().bytes;
    where_.erase(lru_.back().id);
    lru_.pop_back();
  }
}

}  // namespace hwsim
