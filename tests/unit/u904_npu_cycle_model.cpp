// Vela's Ethos-U55-256 cycle model on DS-CNN layers (25x5x64), by hand:
//   micro-blocks in x,y: ceil(25/2)·ceil(5/2) = 39; a step: max(32, 4·39) = 156 cycles
//   pointwise 64→64: min(1·ceil(64/32), ceil(1/4)·ceil(64/8)) = 2 steps × 8 OFM depth blocks = 2496
//   depthwise 3x3: 156 × ceil(9/4) × 8 = 3744
//   fully connected 64→12 (1x1 output): max(32, 4) × 2 × ceil(12/8) = 128
//   first conv 10x4 on 1 channel: part-kernel-first ceil(40/4)·1 = 10 steps (not 40) × 8 × 156 = 12480
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
ConvOp layer(std::int64_t in_c, std::int64_t out_c, std::int64_t k, bool dw) {
  ConvOp c;
  c.in_h = 25, c.in_w = 5, c.in_c = in_c, c.out_c = out_c, c.kernel_h = c.kernel_w = k;
  c.groups = dw ? in_c : 1;
  set_padding(c, ConvPadding::same);
  return c;
}
}  // namespace

TEST_CASE("npu cycles: pointwise, depthwise, fully connected and part-kernel-first") {
  McuChip u55 = McuChip::from_config(load_chip(chip_file("cortex_m55_u55"), {}));
  McuWork pw = lower_mcu_op(Op{"pw", "conv", layer(64, 64, 1, false)}, u55, Home::sram);
  CHECK(pw.engine == Engine::npu);
  CHECK(pw.fallback.empty());
  CHECK(pw.cycles == 2496);
  CHECK(pw.overhead == doctest::Approx(200 / 400e6));
  CHECK(lower_mcu_op(Op{"dw", "dwconv", layer(64, 64, 3, true)}, u55, Home::sram).cycles == 3744);
  GemmOp fc;
  fc.m = 1, fc.n = 12, fc.k = 64, fc.a = fc.b = fc.out = DType::int8;
  CHECK(lower_mcu_op(Op{"fc", "fc", fc}, u55, Home::sram).cycles == 128);
  ConvOp first;
  first.in_h = 49, first.in_w = 10, first.in_c = 1, first.out_c = 64, first.kernel_h = 10, first.kernel_w = 4;
  first.stride_h = first.stride_w = 2;
  set_padding(first, ConvPadding::same);
  CHECK(lower_mcu_op(Op{"conv1", "conv", first}, u55, Home::sram).cycles == 10 * 8 * 156);
}
