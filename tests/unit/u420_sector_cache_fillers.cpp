// SectorCache's filler lines (add_pressure) behave, hit for hit, as the definition: each set
// takes its share of the fillers when it is next looked at, one filler after another, each into
// the least recently used way (the lower way among equal stamps) and newer than all it holds; a
// set first filled owes none of the fillers added before. The cache takes shortcuts (all ways at
// once, a sorted order for many); this reference takes none. Random lookups, allocations and
// pressure, with shares of 0, 1–2, several and more than a set's ways.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "models/gpu/warp/sector_cache.h"

using hwsim::warp::SectorCache;

namespace {

constexpr std::uint64_t kFiller = ~std::uint64_t(0);

// One set per line % sets (no hashing), LRU by stamp, fillers one by one.
class ReferenceCache {
 public:
  ReferenceCache(std::uint64_t sets, int ways) : sets_(sets), ways_(ways), state_(sets) {}

  bool find(std::uint64_t line) {
    Set& s = state_[line % sets_];
    if (!s.created) return false;
    take(s);
    for (Way& w : s.ways)
      if (w.tag == line + 1) {
        w.used = ++clock_;
        return true;
      }
    return false;
  }
  void allocate(std::uint64_t line) {
    Set& s = state_[line % sets_];
    if (!s.created) {
      s.created = true;
      s.ways.assign(std::size_t(ways_), Way{});
      s.taken = due();
    }
    take(s);
    lru(s) = Way{line + 1, ++clock_};
  }
  void add_pressure(double lines) {
    if (!pressured_)
      for (Set& s : state_) s.taken = due();
    pressured_ = true;
    pressure_ += lines;
  }

 private:
  struct Way {
    std::uint64_t tag = 0, used = 0;
  };
  struct Set {
    bool created = false;
    std::uint64_t taken = 0;
    std::vector<Way> ways;
  };
  std::uint64_t due() const { return std::uint64_t(pressure_ / double(sets_)); }
  Way& lru(Set& s) {
    std::size_t victim = 0;
    for (std::size_t w = 1; w < s.ways.size(); ++w)
      if (s.ways[w].used < s.ways[victim].used) victim = w;
    return s.ways[victim];
  }
  void take(Set& s) {
    if (!pressured_) return;
    std::uint64_t fillers = std::min<std::uint64_t>(due() - s.taken, std::uint64_t(ways_));
    s.taken = due();
    for (std::uint64_t f = 0; f < fillers; ++f) lru(s) = Way{kFiller, ++clock_};
  }

  std::uint64_t sets_;
  int ways_;
  std::vector<Set> state_;
  bool pressured_ = false;
  double pressure_ = 0;
  std::uint64_t clock_ = 0;
};

}  // namespace

TEST_CASE("warp sector cache: filler lines give the hits of taking them one by one") {
  const int line_bytes = 128;
  for (int ways : {4, 8, 16}) {
    const std::uint64_t sets = 4096;  // a chunk per set, as in an L2
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      CAPTURE(ways);
      CAPTURE(seed);
      SectorCache cache(sets * std::uint64_t(ways) * line_bytes, line_bytes, ways, false);
      ReferenceCache ref(sets, ways);
      std::mt19937_64 rng(seed);
      std::uniform_int_distribution<std::uint64_t> pick_line(0, sets * std::uint64_t(ways) / 2);
      std::uniform_real_distribution<double> u(0, 1);
      int hits = 0, mismatches = 0;
      for (int op = 0; op < 200000; ++op) {
        double r = u(rng);
        if (r < 0.0005) {  // a share per set from 0 to about 1.5 sets' worth of ways
          double lines = u(rng) * 1.5 * double(ways) * double(sets);
          cache.add_pressure(lines);
          ref.add_pressure(lines);
          continue;
        }
        std::uint64_t line = pick_line(rng);
        bool hit = cache.find(line) != nullptr;
        if (hit != ref.find(line)) ++mismatches;
        hits += hit ? 1 : 0;
        if (!hit) cache.allocate(line), ref.allocate(line);
      }
      CHECK(mismatches == 0);
      CHECK(hits > 5000);   // the stream reuses lines: hits and misses are both compared
    }
  }
}
