// The register-blocked SGEMM kernel (4x4 per thread, shared-memory staging, software-pipelined
// loads, optional split-K with atomics) computes C = A·B (checked against a host loop).
#include <doctest/doctest.h>

#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("warp: matmul_regblock is right, with and without split-K") {
  const int n = 64;
  for (int splitk : {1, 2}) {
    auto r = test::run_file("matmul_regblock", (n / 32) * (n / 32) * splitk, 64,
                            {{"n", std::to_string(n)}, {"splitk", std::to_string(splitk)}});
    auto a = test::values(*r, "a"), b = test::values(*r, "b"), c = test::values(*r, "c");
    int bad = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double ref = 0;
        for (int q = 0; q < n; ++q) ref += a[std::size_t(i * n + q)] * b[std::size_t(q * n + j)];
        if (std::abs(c[std::size_t(i * n + j)] - ref) > 1e-4 * (1 + std::abs(ref))) ++bad;
      }
    CHECK_MESSAGE(bad == 0, "splitk=" << splitk);
  }
}

TEST_CASE("warp: three-register FMAs pay the register-bank conflict cost") {
  // divergence runs fma a, a, k, c (three registers); branch_data fma a, a, imm, b (two): per
  // FMA the first costs ~1.5 issue cycles with 8 warps per scheduler (issue bound), the second ~1
  // cost of 1024 more FMAs per thread, so launch, setup and the global load cancel
  auto cycles = [](const char* k, const char* x, int work) {
    std::map<std::string, std::string> args{{"paths", "1"}, {"work", std::to_string(work)}};
    if (x) args = {{"x", x}, {"work", std::to_string(work)}};
    return double(test::run_file(k, 1, 1024, args)->stats.cycles);
  };
  double three = cycles("divergence", nullptr, 512) - cycles("divergence", nullptr, 256);
  double two = cycles("branch_data", "threads:sorted", 1024) - cycles("branch_data", "threads:sorted", 512);
  double ratio = three / two;
  CHECK(ratio > 1.4);
  CHECK(ratio < 1.6);
}
