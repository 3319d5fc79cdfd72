// Operand alignment decides the GEMM path: 16-byte aligned row pitches and base addresses take the
// TMA kernels; otherwise the widest access the rows allow, and the report says why.
#include <doctest/doctest.h>

#include "models/gpu/tile/gemm_alignment.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
GemmOp gemm(std::int64_t m, std::int64_t n, std::int64_t k, DType t = DType::bf16) {
  GemmOp g;
  g.m = m, g.n = n, g.k = k, g.a = g.b = g.out = t;
  return g;
}
}  // namespace

TEST_CASE("gemm alignment: K misaligns both inputs, N the output, M nothing") {
  CHECK(gemm_alignment(gemm(4096, 4096, 4096)).tma());
  CHECK(gemm_alignment(gemm(4095, 4096, 4096)).tma());  // M is not a pitch
  GemmAlignment k = gemm_alignment(gemm(4096, 4096, 4095));
  CHECK(k.a == 2);  // 4095 · 2 B = 8190 B: 2-byte aligned
  CHECK(k.b == 2);
  CHECK(k.c == 16);
  CHECK(contains(k.reason, "K=4095 is not a multiple of 8"));
  CHECK(contains(k.reason, "no TMA"));
  GemmAlignment n = gemm_alignment(gemm(4096, 4095, 4096));
  CHECK(n.a == 16);
  CHECK(n.c == 2);
  CHECK(contains(n.reason, "N=4095"));
  // fp32: 4095 · 4 B is 4-byte aligned; K = 4094 in bf16: 8188 B, 4-byte aligned.
  CHECK(gemm_alignment(gemm(64, 64, 4095, DType::fp32)).vector_bytes() == 4);
  CHECK(gemm_alignment(gemm(64, 64, 4094)).vector_bytes() == 4);
}

TEST_CASE("gemm alignment: a base address one element past an aligned allocation") {
  GemmOp g = gemm(1, 4096, 4096);
  g.layout.offset_a = 1;
  GemmAlignment a = gemm_alignment(g);
  CHECK(a.a == 2);
  CHECK(a.b == 16);
  CHECK(contains(a.reason, "x starts 1 elements past"));
  g.layout.offset_a = 8;  // 16 bytes: aligned again
  CHECK(gemm_alignment(g).tma());
  g.layout.ldb = 4100;  // padded rows of 8200 B: 8-byte aligned
  CHECK(gemm_alignment(g).b == 8);
}
