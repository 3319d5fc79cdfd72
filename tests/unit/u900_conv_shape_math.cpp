// ConvOp shape arithmetic against hand-computed values: TensorFlow "same" and "valid" output sizes,
// MACs, bytes (per-channel scale + int32 bias), and the implicit GEMM every GPU/TPU lowering uses.
#include <doctest/doctest.h>

#include "ops/op.h"

using namespace hwsim;

TEST_CASE("conv: same padding with stride 2 on 49x10 (DS-CNN's first layer) gives 25x5") {
  ConvOp c;
  c.in_h = 49, c.in_w = 10, c.in_c = 1, c.out_c = 64, c.kernel_h = 10, c.kernel_w = 4, c.stride_h = c.stride_w = 2;
  set_padding(c, ConvPadding::same);
  // out = ceil(49/2) = 25: total pad (25-1)*2 + 10 - 49 = 9 → 4 top, 5 bottom; width (5-1)*2+4-10 = 2.
  CHECK(c.pad_top == 4);
  CHECK(c.pad_bottom == 5);
  CHECK(c.pad_left == 1);
  CHECK(c.pad_right == 1);
  CHECK(conv_out_h(c) == 25);
  CHECK(conv_out_w(c) == 5);
  CHECK(conv_macs(c) == 25.0 * 5 * 64 * 40);               // 320,000
  CHECK(conv_weight_bytes(c) == 64.0 * 40 + 64.0 * 8);      // int8 filters + scale and bias per channel
  CHECK(op_flops(Op{"c", "conv", c}) == 2 * 320000.0);
  CHECK(op_min_bytes(Op{"c", "conv", c}) == 490.0 + 3072.0 + 8000.0);
}

TEST_CASE("conv: valid padding, depthwise, and the implicit GEMM") {
  ConvOp c;
  c.in_h = c.in_w = 32, c.in_c = 16, c.out_c = 32, c.kernel_h = c.kernel_w = 3, c.stride_h = c.stride_w = 2;
  set_padding(c, ConvPadding::valid);
  CHECK(conv_out_h(c) == 15);  // (32 - 3) / 2 + 1
  GemmOp g = conv_as_gemm(c);
  CHECK(g.m == 15 * 15);
  CHECK(g.n == 32);
  CHECK(g.k == 16 * 9);
  CHECK(2.0 * g.m * g.n * g.k * g.groups == 2 * conv_macs(c));

  ConvOp d;
  d.in_h = d.in_w = 12, d.in_c = d.out_c = d.groups = 64, d.kernel_h = d.kernel_w = 3;
  set_padding(d, ConvPadding::same);
  CHECK(is_depthwise(d));
  CHECK(conv_macs(d) == 12.0 * 12 * 64 * 9);
  GemmOp dg = conv_as_gemm(d);
  CHECK(dg.groups == 64);
  CHECK(dg.n == 1);
  CHECK(dg.k == 9);
  StreamOp s = depthwise_as_stream(d);
  CHECK(s.flops == 2 * conv_macs(d));
  CHECK(s.bytes_read == 12.0 * 12 * 64 + 64.0 * 9 + 64.0 * 8);
}
