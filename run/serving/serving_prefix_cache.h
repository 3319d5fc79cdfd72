#pragma once
// Automatic prefix caching of one instance's KV pool (docs/serving.md, "Prefix caching"), as
// vLLM's block-hash cache: the full blocks of a declared shared prefix — block `index` of group
// `group`'s common text — are one physical block each, reference counted: every running request
// whose prompt starts with it holds the same block, and when the last one lets go the block stays
// cached but free (evictable), evicted least recently freed first when the pool needs blocks.
// Pure bookkeeping of which blocks exist and who holds them; the scheduler counts the rest of the
// pool (a request's blocks that are not cached prefix blocks are its own).
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace hwsim {

class PrefixCache {
 public:
  struct Key {
    std::int64_t group = 0, index = 0;
    auto operator<=>(const Key&) const = default;
  };

  // How many of blocks (group, 0), (group, 1), … (at most `limit`) are cached, from the first on:
  // the longest chain a request of the group can take.
  std::int64_t chain(std::int64_t group, std::int64_t limit) const;
  // Of the chain's first `n` blocks, how many are free (they stop being evictable when taken).
  std::int64_t evictable_among(std::int64_t group, std::int64_t n) const;
  // `holder` takes a reference on the chain's first `n` blocks (all cached).
  void acquire(std::size_t holder, std::int64_t group, std::int64_t n);
  // `holder` has computed block `key` in a block of its own: the block becomes the cached one, held
  // by `holder`; false when `key` is cached already (the holder's copy stays its own).
  bool insert(std::size_t holder, Key key);
  // `holder` lets go of every block it references; blocks no one holds become evictable, the
  // holder's later blocks first (vLLM frees a request's blocks in reverse order, so a prefix's
  // tail is evicted before its head).
  void release(std::size_t holder);
  // Evicts `n` (≤ evictable()) free cached blocks, least recently freed first.
  void evict(std::int64_t n);

  std::int64_t evictable() const { return std::int64_t(free_.size()); }
  std::int64_t held_by(std::size_t holder) const;
  std::int64_t cached() const { return std::int64_t(entries_.size()); }
  std::int64_t evictions() const { return evictions_; }

 private:
  struct Entry {
    std::int64_t refs = 0;
    std::uint64_t freed = 0;  // when its last holder let go (the free order)
  };
  std::map<Key, Entry> entries_;
  std::set<std::pair<std::uint64_t, Key>> free_;   // evictable, least recently freed first
  std::map<std::size_t, std::vector<Key>> held_;   // per holder: the blocks it references
  std::uint64_t clock_ = 0;
  std::int64_t evictions_ = 0;
};

}  // namespace hwsim
