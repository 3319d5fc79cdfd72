// The memory-side cache (Infinity Cache / MALL) behind the partitions' L2s: what one partition
// fetched, another finds there; dirty L2 evictions and the kernel-end release are written into
// it, and only its own misses and evictions reach device memory.
#include <doctest/doctest.h>

#include "models/gpu/tile/partitioned_l2.h"

using namespace hwsim;

namespace {
constexpr double kKiB = 1024, kMiB = 1024 * kKiB;
}

TEST_CASE("mall: a second partition's miss is a memory-side cache hit") {
  PartitionedCaches c(2, 2 * kMiB, 64 * kMiB);
  REQUIRE(c.has_mall());
  LevelBytes first = c.read(0, 9, 256 * kKiB, 0);
  CHECK(first.l2_miss == 256 * kKiB);
  CHECK(first.mall_miss == 256 * kKiB);  // from device memory
  LevelBytes second = c.read(1, 9, 256 * kKiB, 0);
  CHECK(second.l2_miss == 256 * kKiB);   // not in partition 1's L2
  CHECK(second.mall_miss == 0);          // served by the memory-side cache
  CHECK(second.mall_bytes() == 256 * kKiB);
}

TEST_CASE("mall: dirty L2 evictions are allocated in the memory-side cache") {
  PartitionedCaches c(1, 1 * kMiB, 64 * kMiB);
  CHECK(c.write(0, 1, 768 * kKiB, 0).l2_writeback == 0);
  LevelBytes evicting = c.write(0, 2, 768 * kKiB, 0);  // 1.5 MiB > 1 MiB: object 1 leaves dirty
  CHECK(evicting.l2_writeback == 768 * kKiB);
  CHECK(evicting.mall_writeback == 0);                 // absorbed, not written to device memory
  LevelBytes back = c.read(0, 1, 768 * kKiB, 0);
  CHECK(back.l2_miss == 768 * kKiB);
  CHECK(back.mall_miss == 0);
}

TEST_CASE("mall: the kernel-end release writes every L2's dirty data into the memory-side cache") {
  PartitionedCaches c(2, 2 * kMiB, 64 * kMiB);
  c.write(0, 5, 128 * kKiB, 0);
  c.write(1, 6, 64 * kKiB, 0);
  LevelBytes r = c.release();
  CHECK(r.l2_writeback == 192 * kKiB);
  CHECK(r.mall_writeback == 0);
  CHECK(c.release().l2_writeback == 0);          // clean now
  LevelBytes other = c.read(1, 5, 128 * kKiB, 0);  // partition 0's result, read on partition 1
  CHECK(other.l2_miss == 128 * kKiB);
  CHECK(other.mall_miss == 0);
}

TEST_CASE("mall: without a memory-side cache, L2 misses and write-backs go to device memory as before") {
  PartitionedCaches c(1, 1 * kMiB, 0);
  CHECK_FALSE(c.has_mall());
  LevelBytes r = c.read(0, 3, 512 * kKiB, 0);
  CHECK(r.l2_miss == 512 * kKiB);
  CHECK(r.mall_miss == 0);
  CHECK(c.write(0, -1, 100, 0).l2_writeback == 100);  // a streaming store goes straight through
}
