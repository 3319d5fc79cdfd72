// The shared-memory tree and the warp-shuffle reductions both sum each block's elements.
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: reductions sum each block") {
  for (const char* k : {"reduction_tree", "reduction_shuffle"}) {
    auto r = test::run_file(k, 4, 256, {{"x", "threads:random:9"}});
    auto x = test::values(*r, "x"), out = test::values(*r, "out");
    REQUIRE(out.size() == 4);
    for (int b = 0; b < 4; ++b) {
      double sum = 0;
      for (int i = 0; i < 256; ++i) sum += x[std::size_t(b * 256 + i)];
      CHECK_MESSAGE(out[std::size_t(b)] == doctest::Approx(sum).epsilon(1e-4), k);
    }
  }
}
