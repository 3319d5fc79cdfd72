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
  if (!way_chunks_[chunk]) {
    if (!create) return nullptr;
    // A chunk's storage comes from the current slab (a new one when it is used up): one
    // allocation per kSlabChunks chunks, not two per set.
    const std::size_t per_chunk = std::size_t(ways_) << chunk_bits_;
    const std::size_t slab_chunks = std::min(kSlabChunks, way_chunks_.size());
    if (slab_used_ == slab_chunks || way_slabs_.empty()) {
      way_slabs_.push_back(std::make_unique<Way[]>(per_chunk * slab_chunks));  // empty ways
      line_slabs_.push_back(std::make_unique_for_overwrite<Line[]>(per_chunk * slab_chunks));  // unwritten
      slab_used_ = 0;
    }
    way_chunks_[chunk] = way_slabs_.back().get() + per_chunk * slab_used_;
    line_chunks_[chunk] = line_slabs_.back().get() + per_chunk * slab_used_;
    ++slab_used_;
    // fillers in an empty set are as good as empty ways: the new sets owe none
    if (!taken_.empty())
      for (std::uint64_t s = std::uint64_t(chunk) << chunk_bits_; s < sets_ && s < (std::uint64_t(chunk + 1) << chunk_bits_); ++s)
        taken_[std::size_t(s)] = share_due();
  }
  const std::size_t first = std::size_t(set & ((std::uint64_t(1) << chunk_bits_) - 1)) * std::size_t(ways_);
  *lines = &line_chunks_[chunk][first];
  return &way_chunks_[chunk][first];
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

// The fillers take the least recently used ways one after another: in order of their stamps
// (the lower way first among equal stamps), each new filler newer than every way it did not take.
// Fillers are alike (their tag matches no line), so only which ways they take, and the stamps they
// get as a set, matter; their sector state is never read, so it is not cleared.
void SectorCache::take_pressure(std::uint64_t s, Way* set, Line*) {
  const std::uint64_t due = share_due();
  std::uint64_t& taken = taken_[std::size_t(s)];
  const int fillers = int(std::min<std::uint64_t>(due - taken, std::uint64_t(ways_)));
  taken = due;
  if (fillers == 0) return;
  if (fillers == ways_) {  // all of them: which way gets which stamp cannot be told apart
    for (int w = 0; w < ways_; ++w) set[w] = Way{kFiller, ++clock_};
    return;
  }
  if (fillers <= 2) {  // few: the least recently used way, once or twice
    for (int f = 0; f < fillers; ++f) {
      int victim = 0;
      for (int w = 1; w < ways_; ++w)
        if (set[w].used < set[victim].used) victim = w;
      set[victim] = Way{kFiller, ++clock_};
    }
    return;
  }
  order_.resize(std::size_t(ways_));
  for (int w = 0; w < ways_; ++w) {  // insertion sort by stamp: stable, and no allocation
    int j = w;
    for (; j > 0 && set[order_[std::size_t(j - 1)]].used > set[w].used; --j) order_[std::size_t(j)] = order_[std::size_t(j - 1)];
    order_[std::size_t(j)] = w;
  }
  for (int f = 0; f < fillers; ++f) set[order_[std::size_t(f)]] = Way{kFiller, ++clock_};
}

void SectorCache::settle() {
  for (std::size_t c = 0; c < line_chunks_.size(); ++c) {
    if (!line_chunks_[c]) continue;
    Line* lines = line_chunks_[c];
    const Way* ways = way_chunks_[c];
    for (std::size_t i = 0; i < (std::size_t(ways_) << chunk_bits_); ++i)
      if (ways[i].tag != 0 && ways[i].tag != kFiller)  // a line held (the others are never read)
        std::fill(std::begin(lines[i].ready), std::end(lines[i].ready), std::int64_t(0));
  }
}

}  // namespace hwsim::warp
