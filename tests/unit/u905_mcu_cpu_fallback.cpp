// Ops the Ethos-U55 cannot run fall back to the CPU with the reason: a stride beyond Vela's limit,
// fp32 math, a disabled softmax. On the CPU a MAC op costs MACs / (SIMD MACs per cycle x CMSIS-NN
// efficiency): 8 x 0.5 = 4 MACs per cycle on the M55.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("npu fallback: stride 4, fp32 and softmax go to the CPU and say why") {
  McuChip u55 = McuChip::from_config(load_chip(chip_file("cortex_m55_u55"), {}));
  ConvOp c;
  c.in_h = c.in_w = 32, c.in_c = c.out_c = 16, c.kernel_h = c.kernel_w = 3, c.stride_h = c.stride_w = 4;
  set_padding(c, ConvPadding::same);
  McuWork w = lower_mcu_op(Op{"conv", "conv", c}, u55, Home::sram);
  CHECK(w.engine == Engine::cpu);
  CHECK(w.fallback == "stride 4 > npu.max_stride 3");
  CHECK(w.cycles == doctest::Approx(conv_macs(c) / (8 * 0.5)));
  CHECK(w.config == "cpu cmsis-nn conv int8 (fallback: stride 4 > npu.max_stride 3)");

  ConvOp f = c;
  f.stride_h = f.stride_w = 1;
  f.a = f.b = f.out = DType::fp32;
  McuWork fw = lower_mcu_op(Op{"conv", "conv", f}, u55, Home::sram);
  CHECK(fw.fallback == "fp32 math (the NPU runs int8)");
  CHECK(fw.cycles == doctest::Approx(conv_macs(f) / (2 * 0.5)));

  McuChip no_softmax = McuChip::from_config(load_chip(chip_file("cortex_m55_u55"), {"npu.softmax=false"}));
  McuWork s = lower_mcu_op(Op{"softmax", "softmax", StreamOp{12, 12, 72, 1}}, no_softmax, Home::sram);
  CHECK(s.engine == Engine::cpu);
  CHECK(s.fallback == "softmax disabled (npu.softmax = false)");
  CHECK(s.cycles == doctest::Approx(72 / (8 * 0.5)));
}
