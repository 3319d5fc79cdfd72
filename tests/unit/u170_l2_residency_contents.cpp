// A cache level's contents (CacheResidency::contents) are everything later accesses depend on:
// the bytes it counts as held are the exact sum of what it holds, whatever history led there, a
// level given another's contents answers every access as that one does, and a level filled
// exactly to its capacity by pieces with fractional bounds is full, not over.
#include <doctest/doctest.h>

#include "models/memory/cache_residency.h"

using namespace hwsim;

namespace {

// Ranges of object 1 with fractional bounds, as a kernel's slices of a tensor block are.
void slices(CacheResidency& l2, int pieces, double bytes) {
  for (int i = 0; i < pieces; ++i) l2.read(1, bytes / pieces, bytes / pieces * i);
}

}  // namespace

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

TEST_CASE("l2 contents: a level filled exactly by fractional slices is full, not over") {
  // 1000 bytes as 7 slices of 142.857... bytes: the rounded pieces sum a hair off 1000, and the
  // level must not evict for it
  CacheResidency l2(1000.0);
  l2.read(5, 0.0 + 1e-3);  // an old object to evict if the level counted itself over
  slices(l2, 7, 1000.0 - 1e-3);
  CHECK(l2.resident(5));
  CHECK(l2.resident(1));
}
