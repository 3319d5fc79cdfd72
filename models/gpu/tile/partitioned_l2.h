#pragma once
// The caches a tile-level GPU's operands pass through: one L2 per partition (one for NVIDIA; one
// per XCD, private to it, on AMD CDNA3) and an optional memory-side cache all partitions share in
// front of device memory (AMD's Infinity Cache / MALL). Residency only: which bytes each level
// missed and wrote back; the TileMachine turns the bytes into flows on its bandwidth servers.
//
// - A read looks in its partition's L2; what misses there looks in the memory-side cache (when
//   present), and what misses there comes from device memory. An object another partition holds
//   is NOT found: partitions do not share their L2s, so an operand that CTAs on k partitions read
//   is fetched k times from the next level (cross-partition reuse is lost; the memory-side cache
//   may recover it).
// - Dirty data an L2 evicts is written into the memory-side cache (allocated dirty there); its own
//   evictions go to device memory. Without one, L2 write-backs go to device memory.
// - release(): at the end of a kernel on a partitioned chip the L2s write their dirty data back
//   (the release that makes results visible to other partitions); they keep clean copies.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/gpu/kernel.h"
#include "models/memory/cache_residency.h"

namespace hwsim {

// Bytes one access (or a release) caused beyond the L2 it went to, by level.
struct LevelBytes {
  double l2_miss = 0;         // read bytes the L2 did not hold (fetched from the next level)
  double l2_writeback = 0;    // dirty bytes the L2 evicted to the next level
  double mall_miss = 0;       // of l2_miss, the bytes the memory-side cache did not hold either
  double mall_writeback = 0;  // dirty bytes the memory-side cache evicted to device memory

  // Bytes that crossed the memory-side cache (its misses and write-backs); 0 without one.
  double mall_bytes() const { return l2_miss + l2_writeback; }
  LevelBytes& operator+=(const LevelBytes& o);
};

class PartitionedCaches {
 public:
  // `l2_total_bytes` is split evenly over the partitions; `mall_bytes` 0 = no memory-side cache.
  PartitionedCaches(int partitions, double l2_total_bytes, double mall_bytes);
  PartitionedCaches(const PartitionedCaches&) = delete;
  PartitionedCaches& operator=(const PartitionedCaches&) = delete;

  LevelBytes read(int partition, std::int64_t id, double bytes, double offset);
  LevelBytes write(int partition, std::int64_t id, double bytes, double offset);
  // read() or write() of each operand in order, their LevelBytes added into `sum` and their sizes
  // into `bytes`, as a loop over them would (a CTA's operands: one call instead of one each).
  void read_all(int partition, std::span<const OperandRead> operands, LevelBytes& sum, double& bytes);
  void write_all(int partition, std::span<const OperandRead> operands, LevelBytes& sum, double& bytes);
  // Every L2's dirty data written back (into the memory-side cache, or device memory): counted as
  // l2_writeback (+ mall_writeback for what the memory-side cache evicted to make room).
  LevelBytes release();

  int partitions() const { return int(l2_.size()); }
  bool has_mall() const { return mall_.has_value(); }

  // Every level's contents and the write-backs not yet taken: all later accesses depend on.
  struct State {
    std::vector<CacheResidency::Contents> l2;
    std::optional<CacheResidency::Contents> mall;
    std::vector<WrittenBack> written_back;
    bool operator==(const State&) const = default;
    std::size_t bytes() const;  // host memory its lists hold, roughly
  };
  State state() const;
  void set_state(const State& s);  // `s` from this object's state()

 private:
  LevelBytes spill();  // moves recorded L2 write-backs into the memory-side cache
  std::vector<CacheResidency> l2_;
  std::optional<CacheResidency> mall_;
  std::vector<WrittenBack> written_back_;  // L2 write-backs not yet taken by the memory-side cache
};

}  // namespace hwsim
