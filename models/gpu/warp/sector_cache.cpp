#include "models/gpu/warp/sector_cache.h"

#include <algorithm>
#include <bit>

namespace hwsim::warp {

SectorCache::SectorCache(std::uint64_t bytes, int line_bytes, int ways, bool hashed_index)
    : ways_(std::max(1, ways)), hashed_(hashed_index) {
  sets_ = std::max<std::uint64_t>(1, bytes / std::uint64_t(line_bytes) / std::uint64_t(ways_));
  if (sets_ * std::uint64_t(ways_) <= 8192) chunk_bits_ = std::bit_width(sets_ - 1);
  way_chunks_.resize(std::size_t(((sets_ - 1) >> chunk_bits_) + 1));
  line_chunks_.resize(way_chunks_.size());
}

std::uint64_t SectorCache::set_of(std::uint64_t line) const {
  if (hashed_) line ^= (line >> 11) * 0x9e3779b1ull;  // spread addresses over slices and sets
  return line % sets_;
}

SectorCache::Way* SectorCache::set_ways(std::uint64_t set, bool create, Line** lines) {
  const std::size_t chunk = std::size_t(set >> chunk_bits_);
  auto& ways = way_chunks_[chunk];
  if (!ways) {
    if (!create) return nullptr;
    ways = std::make_unique<Way[]>(std::size_t(ways_) << chunk_bits_);  // empty ways
    line_chunks_[chunk] = std::make_unique<Line[]>(std::size_t(ways_) << chunk_bits_);
  }
  const std::size_t first = std::size_t(set & ((std::uint64_t(1) << chunk_bits_) - 1)) * std::size_t(ways_);
  *lines = &line_chunks_[chunk][first];
  return &ways[first];
}

SectorCache::Line* SectorCache::find(std::uint64_t line) {
  Line* lines = nullptr;
  Way* set = set_ways(set_of(line), false, &lines);
  if (!set) return nullptr;
  for (int w = 0; w < ways_; ++w)
    if (set[w].tag == line + 1) {
      set[w].used = ++clock_;
      return &lines[w];
    }
  return nullptr;
}

SectorCache::Line& SectorCache::allocate(std::uint64_t line) {
  Line* lines = nullptr;
  Way* set = set_ways(set_of(line), true, &lines);
  int victim = 0;
  for (int w = 1; w < ways_; ++w)
    if (set[w].used < set[victim].used) victim = w;
  set[victim] = Way{line + 1, ++clock_};
  lines[victim] = Line{};
  return lines[victim];
}

void SectorCache::settle() {
  for (std::size_t c = 0; c < line_chunks_.size(); ++c) {
    if (!line_chunks_[c]) continue;
    Line* lines = line_chunks_[c].get();
    for (std::size_t i = 0; i < (std::size_t(ways_) << chunk_bits_); ++i) std::fill(std::begin(lines[i].ready), std::end(lines[i].ready), std::int64_t(0));
  }
}

}  // namespace hwsim::warp
