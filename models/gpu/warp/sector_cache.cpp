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
    // fillers in an empty set are as good as empty ways: the new sets owe none
    if (!taken_.empty())
      for (std::uint64_t s = std::uint64_t(chunk) << chunk_bits_; s < sets_ && s < (std::uint64_t(chunk + 1) << chunk_bits_); ++s)
        taken_[std::size_t(s)] = share_due();
  }
  const std::size_t first = std::size_t(set & ((std::uint64_t(1) << chunk_bits_) - 1)) * std::size_t(ways_);
  *lines = &line_chunks_[chunk][first];
  return &ways[first];
}

SectorCache::Line* SectorCache::find(std::uint64_t line) {
  Line* lines = nullptr;
  const std::uint64_t s = set_of(line);
  Way* set = set_ways(s, false, &lines);
  if (!set) return nullptr;
  if (!taken_.empty()) take_pressure(s, set, lines);
  for (int w = 0; w < ways_; ++w)
    if (set[w].tag == line + 1) {
      set[w].used = ++clock_;
      return &lines[w];
    }
  return nullptr;
}

SectorCache::Line& SectorCache::allocate(std::uint64_t line) {
  Line* lines = nullptr;
  const std::uint64_t s = set_of(line);
  Way* set = set_ways(s, true, &lines);
  if (!taken_.empty()) take_pressure(s, set, lines);
  int victim = 0;
  for (int w = 1; w < ways_; ++w)
    if (set[w].used < set[victim].used) victim = w;
  set[victim] = Way{line + 1, ++clock_};
  lines[victim] = Line{};
  return lines[victim];
}

void SectorCache::add_pressure(double lines) {
  if (taken_.empty()) taken_.assign(std::size_t(sets_), share_due());
  pressure_ += lines;
}

void SectorCache::take_pressure(std::uint64_t s, Way* set, Line* lines) {
  const std::uint64_t due = share_due();
  std::uint64_t& taken = taken_[std::size_t(s)];
  const std::uint64_t fillers = std::min<std::uint64_t>(due - taken, std::uint64_t(ways_));
  taken = due;
  for (std::uint64_t f = 0; f < fillers; ++f) {  // each takes the least recently used way
    int victim = 0;
    for (int w = 1; w < ways_; ++w)
      if (set[w].used < set[victim].used) victim = w;
    set[victim] = Way{kFiller, ++clock_};
    lines[victim] = Line{};
  }
}

void SectorCache::settle() {
  for (std::size_t c = 0; c < line_chunks_.size(); ++c) {
    if (!line_chunks_[c]) continue;
    Line* lines = line_chunks_[c].get();
    for (std::size_t i = 0; i < (std::size_t(ways_) << chunk_bits_); ++i) std::fill(std::begin(lines[i].ready), std::end(lines[i].ready), std::int64_t(0));
  }
}

}  // namespace hwsim::warp
