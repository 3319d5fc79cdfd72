// Naive and shared-memory tiled matmul both compute C = A·B (checked against a host loop).
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: matmul naive and tiled are right") {
  const int n = 32;
  for (const char* k : {"matmul_naive", "matmul_tiled"}) {
    auto r = test::run_file(k, (n / 16) * (n / 16), 256, {{"n", std::to_string(n)}});
    auto a = test::values(*r, "a"), b = test::values(*r, "b"), c = test::values(*r, "c");
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double ref = 0;
        for (int q = 0; q < n; ++q) ref += a[std::size_t(i * n + q)] * b[std::size_t(q * n + j)];
        CHECK_MESSAGE(c[std::size_t(i * n + j)] == doctest::Approx(ref).epsilon(1e-4), k);
      }
  }
}
