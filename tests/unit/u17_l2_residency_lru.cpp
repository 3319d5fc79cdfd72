// L2 residency is a write-back, write-allocate LRU by bytes: hits cost nothing, misses allocate,
// the least recently used object is evicted, and evicting a dirty object writes it back.
#include <doctest/doctest.h>

#include "models/memory/cache_residency.h"

using namespace hwsim;

TEST_CASE("l2: LRU by bytes") {
  CacheResidency l2(100.0);
  CHECK(l2.read(1, 40.0).miss_bytes == 40.0);  // cold miss
  CHECK(l2.read(2, 40.0).miss_bytes == 40.0);  // cold miss; 80 of 100 bytes used
  CHECK(l2.read(1, 40.0).miss_bytes == 0.0);   // hit; 1 is now the most recent
  CHECK(l2.resident_bytes() == 80.0);
  CHECK(l2.read(3, 40.0).miss_bytes == 40.0);  // 120 > 100: evicts the least recent, 2
  CHECK(l2.resident(1));
  CHECK_FALSE(l2.resident(2));
  CHECK(l2.resident(3));
  CHECK(l2.resident_bytes() == 80.0);
  CHECK(l2.read(2, 40.0).miss_bytes == 40.0);  // 2 misses again and evicts 1 (3 is more recent)
  CHECK_FALSE(l2.resident(1));
}

TEST_CASE("l2: streaming data (negative id) always misses and never occupies L2") {
  CacheResidency l2(100.0);
  CHECK(l2.read(-1, 30.0).miss_bytes == 30.0);
  CHECK(l2.read(-1, 30.0).miss_bytes == 30.0);
  CHECK(l2.write(-2, 30.0).writeback_bytes == 30.0);  // a streaming store goes straight to HBM
  CHECK(l2.resident_bytes() == 0.0);
}

TEST_CASE("l2: a write allocates dirty and a later read hits and evicting it writes it back") {
  CacheResidency l2(100.0);
  CHECK(l2.write(7, 60.0).writeback_bytes == 0.0);  // fits: nothing written back yet
  CHECK(l2.read(7, 60.0).miss_bytes == 0.0);        // the written result is read from L2
  CacheTraffic t = l2.read(8, 60.0);                   // 120 > 100: evicts 7, which is dirty
  CHECK(t.miss_bytes == 60.0);
  CHECK(t.writeback_bytes == 60.0);
  CHECK_FALSE(l2.resident(7));
  CacheTraffic clean = l2.read(9, 60.0);               // evicts 8, clean: nothing written back
  CHECK(clean.writeback_bytes == 0.0);
}
