#include "models/gpu/warp/sector_cache.h"

#include <algorithm>

namespace hwsim::warp {

SectorCache::SectorCache(std::uint64_t bytes, int line_bytes, int ways, bool hashed_index)
    : ways_(std::max(1, ways)), hashed_(hashed_index) {
  sets_ = std::max<std::uint64_t>(1, bytes / std::uint64_t(line_bytes) / std::uint64_t(ways_));
  lines_.resize(sets_ * std::uint64_t(ways_));
}

std::uint64_t SectorCache::set_of(std::uint64_t line) const {
  if (hashed_) line ^= (line >> 11) * 0x9e3779b1ull;  // spread addresses over slices and sets
  return line % sets_;
}

SectorCache::Line* SectorCache::find(std::uint64_t line) {
  Line* set = &lines_[set_of(line) * std::uint64_t(ways_)];
  for (int w = 0; w < ways_; ++w)
    if (set[w].tag == line) {
      set[w].used = ++clock_;
      return &set[w];
    }
  return nullptr;
}

SectorCache::Line& SectorCache::allocate(std::uint64_t line) {
  Line* set = &lines_[set_of(line) * std::uint64_t(ways_)];
  Line* victim = set;
  for (int w = 1; w < ways_; ++w)
    if (set[w].used < victim->used) victim = &set[w];
  *victim = Line{};
  victim->tag = line;
  victim->used = ++clock_;
  return *victim;
}

}  // namespace hwsim::warp
