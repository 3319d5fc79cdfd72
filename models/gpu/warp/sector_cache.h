#pragma once
// A set-associative, sectored cache tag store with LRU replacement. Each sector keeps the cycle
// its data is (or will be) present, so a request for a sector still being filled waits for that
// fill instead of sending another request (the merging an MSHR does). The tag store is allocated
// in chunks of sets when a set is first filled, so a 50 MB L2 costs host memory and time only for
// the sets a kernel touches.
#include <cstdint>
#include <memory>
#include <vector>

namespace hwsim::warp {

class SectorCache {
 public:
  static constexpr int kMaxSectors = 8;
  // No member initialisers: a slab's lines are left unwritten until allocate() gives one out
  // (as Line{}, all zero), so a tag store costs memory pages only where lines are used.
  struct Line {
    std::uint32_t valid;             // sector bits
    std::int64_t ready[kMaxSectors];
  };

  SectorCache(std::uint64_t bytes, int line_bytes, int ways, bool hashed_index);
  Line* find(std::uint64_t line);              // updates LRU on a hit
  Line& allocate(std::uint64_t line);          // the LRU way of the set, emptied and retagged
  std::uint64_t capacity_lines() const { return std::uint64_t(sets_) * std::uint64_t(ways_); }
  // Every sector held becomes ready at cycle 0 (the contents a finished launch leaves the next).
  void settle();
  // Lines that fill the cache and are never asked for again (those of the blocks a subset of SMs
  // does not simulate): `lines` more of them, spread evenly over the sets. A set takes its share
  // when it is next looked at, as lines newer than all it holds (the LRU order allocating them
  // one by one would give), so the cost is per lookup, not per line.
  void add_pressure(double lines);

 private:
  // A way's tag and LRU stamp, kept apart from the sector state so a lookup reads one set's tags
  // from consecutive memory.
  struct Way {
    std::uint64_t tag = 0;           // line + 1; 0 = empty
    std::uint64_t used = 0;          // LRU stamp
  };
  std::uint64_t set_of(std::uint64_t line) const;
  // log2 sets per chunk: a small cache is one chunk; a large one a chunk per set (a hashed index
  // scatters even a short stream over every chunk of several sets)
  int chunk_bits_ = 0;
  // The set's ways (and their lines), or null when never filled and !create.
  Way* set_ways(std::uint64_t set, bool create, Line** lines);
  std::vector<Way*> way_chunks_;    // per chunk: its ways (in a slab), null until filled
  std::vector<Line*> line_chunks_;
  // Chunks are carved from slabs of kSlabChunks chunks (of all of them when there are fewer: a
  // small cache is one chunk, allocated when first filled).
  static constexpr std::size_t kSlabChunks = 64;
  std::vector<std::unique_ptr<Way[]>> way_slabs_;
  std::vector<std::unique_ptr<Line[]>> line_slabs_;
  std::size_t slab_used_ = 0;
  std::uint64_t sets_;
  int ways_;
  double pressure_ = 0;                  // filler lines added so far, all sets
  std::vector<std::uint64_t> taken_;     // per set: its share of pressure_ already taken (empty: none yet)
  static constexpr std::uint64_t kFiller = ~std::uint64_t(0);  // a filler way's tag: matches no line
  std::uint64_t share_due() const { return std::uint64_t(pressure_ / double(sets_)); }
  void take_pressure(std::uint64_t set, Way* ways, Line* lines);
  bool hashed_;
  std::uint64_t clock_ = 0;
  std::vector<int> order_;               // take_pressure's scratch: a set's ways, oldest first
};

// A bandwidth server: requests are served in arrival order at `rate` bytes per cycle.
struct BandwidthServer {
  double rate = 1;        // bytes per cycle
  double free_at = 0;     // cycle the server is next idle
  double busy = 0;        // cycles spent serving (utilisation)
  double bytes = 0;
  // Returns the cycle the request's last byte is served.
  double reserve(double t, double n) {
    double start = t > free_at ? t : free_at;
    free_at = start + n / rate;
    busy += n / rate;
    bytes += n;
    return free_at;
  }
};

}  // namespace hwsim::warp
