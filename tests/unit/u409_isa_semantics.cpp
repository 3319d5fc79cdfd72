// Instruction semantics with real values: integer and float arithmetic, shifts, compares into
// predicates, selp, cvt, f16x2 pairs, shuffles, shared-memory vector access, atomics and mma.
#include <doctest/doctest.h>

#include <cmath>

#include "models/gpu/warp/execute.h"
#include "u4_warp_support.h"

using namespace hwsim::warp;

TEST_CASE("isa: scalar semantics") {
  const char* src = R"(.kernel isa
.param buf o f32 = 16:zeros
.param buf u u32 = 16:zeros
.reg u32 a, b, c
.reg s32 s
.reg f32 x, y, z
.reg f16x2 h, h2
.reg u64 p64
.reg pred p
    mov.u32 a, 7
    shl.u32 b, a, 3          // 56
    st.global.u32 [u], b
    shr.u32 c, b, 2          // 14
    st.global.u32 [u+4], c
    mov.s32 s, -9
    shr.s32 s, s, 1          // arithmetic: -5
    st.global.u32 [u+8], s
    min.u32 c, a, b
    st.global.u32 [u+12], c  // 7
    rem.u32 c, b, 5          // 1
    st.global.u32 [u+16], c
    setp.lt.s32 p, s, 0
    selp.u32 c, 111, 222, p
    st.global.u32 [u+20], c  // 111
    mov.f32 x, 1.5
    fma.f32 y, x, 2.0, 0.25  // 3.25
    st.global.f32 [o], y
    sqrt.f32 z, 16.0         // 4
    st.global.f32 [o+4], z
    ex2.f32 z, 3.0           // 8
    st.global.f32 [o+8], z
    cvt.s32.f32 s, y         // 3
    st.global.u32 [u+24], s
    cvt.f32.s32 z, s
    st.global.f32 [o+12], z
    mov.f16x2 h, 0x40003c00  // f16x2 {1.0, 2.0}
    mov.f16x2 h2, 0x42003c00 // {1.0, 3.0}
    mul.f16x2 h, h, h2       // {1.0, 6.0} = 0x46003c00
    st.global.f16x2 [u+28], h
    max.f32 z, x, -2.0
    st.global.f32 [o+16], z
    rcp.f32 z, 4.0
    st.global.f32 [o+20], z
)";
  auto r = test::run(parse_kernel(src, "isa.hwk"), 1, 1);
  auto o = test::values(*r, "o"), u = test::values(*r, "u");
  CHECK(u[0] == 56);
  CHECK(u[1] == 14);
  CHECK(u[2] == double(std::uint32_t(-5)));
  CHECK(u[3] == 7);
  CHECK(u[4] == 1);
  CHECK(u[5] == 111);
  CHECK(o[0] == 3.25);
  CHECK(o[1] == 4);
  CHECK(o[2] == 8);
  CHECK(u[6] == 3);
  CHECK(o[3] == 3);
  CHECK(u[7] == double(0x46003c00u));
  CHECK(o[4] == 1.5);
  CHECK(o[5] == 0.25);
}

TEST_CASE("isa: shuffles, shared vectors and atomics") {
  const char* src = R"(.kernel lanes
.param buf o u32 = 64:zeros
.param buf total u32 = 1:zeros
.shared u32 sh[128]
.reg u32 l, v, w, a, x0, x1, old
.reg u64 off, p64
    mov.u32 l, %laneid
    shfl.down.u32 v, l, 1      // lane+1, the last lane keeps its own
    shfl.idx.u32 w, l, 5       // everyone gets lane 5
    shl.u32 a, l, 3
    add.u32 a, a, sh
    st.shared.v2.u32 [a], {v, w}
    ld.shared.v2.u32 {x0, x1}, [a]
    mul.wide.u32 off, l, 8
    add.u64 p64, o, off
    st.global.v2.u32 [p64], {x0, x1}
    atom.global.add.u32 old, [total], l
)";
  auto r = test::run(parse_kernel(src, "lanes.hwk"), 1, 32);
  auto o = test::values(*r, "o");
  for (int l = 0; l < 32; ++l) {
    CHECK(o[std::size_t(2 * l)] == (l == 31 ? 31 : l + 1));
    CHECK(o[std::size_t(2 * l + 1)] == 5);
  }
  CHECK(test::values(*r, "total")[0] == 496);
}

TEST_CASE("isa: mma m16n8k16 and f16 conversions") {
  // uniform tiles (the language has no f16 conversion yet): A = 2.0, B = 0.5, C = 0.25 → D = 16 + 0.25
  const char* src = R"(.kernel mma
.param buf o f32 = 128:zeros
.reg f16x2 a0, a1, a2, a3, b0, b1
.reg f32 c0, c1, c2, c3, d0, d1, d2, d3
.reg u64 off, p64
    mov.f16x2 a0, 0x40004000
    mov.f16x2 a1, 0x40004000
    mov.f16x2 a2, 0x40004000
    mov.f16x2 a3, 0x40004000
    mov.f16x2 b0, 0x38003800
    mov.f16x2 b1, 0x38003800
    mov.f32 c0, 0.25
    mov.f32 c1, 0.25
    mov.f32 c2, 0.25
    mov.f32 c3, 0.25
    mma.m16n8k16.f32.f16 {d0, d1, d2, d3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3}
    mul.wide.u32 off, %laneid, 16
    add.u64 p64, o, off
    st.global.v4.f32 [p64], {d0, d1, d2, d3}
)";
  auto r = test::run(parse_kernel(src, "mma.hwk"), 1, 32);
  for (double v : test::values(*r, "o")) CHECK(v == 16.25);
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(half_to_float(0x4600) == 6.0f);
  CHECK(float_to_bf16(1.0f) == 0x3f80);
}
