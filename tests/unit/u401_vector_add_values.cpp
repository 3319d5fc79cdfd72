// vector_add computes c = a + b, including a partial last block (n not a multiple of the block).
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: vector_add adds") {
  auto r = test::run_file("vector_add", 3, 128, {{"a", "300:random:5"}, {"b", "300:iota"}, {"c", "300"}, {"n", "300"}});
  auto a = test::values(*r, "a"), b = test::values(*r, "b"), c = test::values(*r, "c");
  REQUIRE(c.size() == 300);
  for (std::size_t i = 0; i < c.size(); ++i) CHECK(c[i] == doctest::Approx(float(a[i]) + float(b[i])));
  CHECK(r->stats.warp_instructions > 0);
  CHECK(r->stats.cycles > 0);
}
