// Row softmax: each row sums to 1 and matches exp(x - max) / sum.
#include <doctest/doctest.h>

#include <cmath>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: softmax rows") {
  const int rows = 3, cols = 100;
  auto r = test::run_file("softmax", rows, 32, {{"cols", std::to_string(cols)}});
  auto x = test::values(*r, "x"), y = test::values(*r, "y");
  for (int i = 0; i < rows; ++i) {
    double m = -1e30, sum = 0;
    for (int j = 0; j < cols; ++j) m = std::max(m, x[std::size_t(i * cols + j)]);
    for (int j = 0; j < cols; ++j) sum += std::exp(x[std::size_t(i * cols + j)] - m);
    double total = 0;
    for (int j = 0; j < cols; ++j) {
      double ref = std::exp(x[std::size_t(i * cols + j)] - m) / sum;
      CHECK(y[std::size_t(i * cols + j)] == doctest::Approx(ref).epsilon(1e-4));
      total += y[std::size_t(i * cols + j)];
    }
    CHECK(total == doctest::Approx(1.0).epsilon(1e-4));
  }
}
