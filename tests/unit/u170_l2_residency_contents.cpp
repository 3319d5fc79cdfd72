// A cache level's contents (CacheResidency::contents) are everything later accesses depend on:
// the bytes it counts as held are the exact sum of what it holds, whatever history led there, a
// level given another's contents answers every access as that one does, and a level filled
// exactly to its capacity is full, not over, though its ranges' lengths round a hair above.
#include <doctest/doctest.h>

#include "models/memory/cache_residency.h"

using namespace hwsim;

TEST_CASE("l2 contents: two histories that end holding the same objects count the same bytes") {
  // one: 0.1, 0.2, 0.3 bytes, the first evicted by the third (a double summed as it happened
  // would hold 0.1 + 0.2 + 0.3 - 0.1 = 0.49999999999999994); two: only the last two
  CacheResidency one(0.55), two(0.55);
  one.read(1, 0.1);
  one.read(2, 0.2);
  one.read(3, 0.3);
  CHECK_FALSE(one.resident(1));
  two.read(2, 0.2);
  two.read(3, 0.3);
  CHECK(one.contents() == two.contents());
  CHECK(one.resident_bytes() == two.resident_bytes());
  CHECK(one.resident_bytes() == 0.5);
  two.read(4, 0.05);  // a further access, and they differ
  CHECK(one.contents() != two.contents());
}

TEST_CASE("l2 contents: a level given another's contents answers every access alike") {
  CacheResidency a(500.0), b(500.0);
  a.read(1, 200.0);
  a.write(2, 100.0);
  a.read(3, 150.0);
  b.read(9, 400.0);  // b starts elsewhere
  b.set_contents(a.contents());
  CHECK(b.contents() == a.contents());
  CHECK(b.resident_bytes() == a.resident_bytes());
  for (auto [id, bytes] : {std::pair{4, 120.0}, {1, 200.0}, {5, 300.0}, {2, 100.0}}) {
    CacheTraffic ta = a.read(id, bytes), tb = b.read(id, bytes);
    CHECK(ta.miss_bytes == tb.miss_bytes);
    CHECK(ta.writeback_bytes == tb.writeback_bytes);  // object 2 was dirty in both
  }
  CHECK(b.contents() == a.contents());
}

TEST_CASE("l2 contents: a level filled exactly to its capacity is full, not over") {
  // Two objects of `bytes` at a large fractional offset: each range's length, end - offset in
  // doubles, comes out 6.6e-9 bytes above `bytes`, so the two count a hair over a capacity of
  // exactly 2 x bytes. The level must not evict the first for it.
  const double offset = 100000000.76377462, bytes = 1000.2550690257394;
  REQUIRE((offset + bytes) - offset > bytes);
  CacheResidency l2(2 * bytes);
  l2.read(1, bytes, offset);
  l2.read(2, bytes, offset);
  CHECK(l2.resident(1));
  CHECK(l2.resident(2));
  l2.read(3, 1.0);  // a byte more is over: the least recent goes
  CHECK_FALSE(l2.resident(1));
}
