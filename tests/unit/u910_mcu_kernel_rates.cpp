// A MAC op on a Cortex-M core runs at its layer type's kernel rate (docs/mcu.md, "CPU cycles"):
// depthwise, pointwise (1x1 stride 1), fully connected, a conv over a one-channel input, other convs;
// each output element adds the requantising output stage; weights in flash stall the core per miss
// (line / word flash reads x wait states + bus overhead, per line). The three newer rates default
// (0) to the conv's efficiency.
#include <doctest/doctest.h>

#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "ops/device.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
ConvOp conv(std::int64_t hw, std::int64_t in_c, std::int64_t out_c, std::int64_t k, std::int64_t groups = 1) {
  ConvOp c;
  c.in_h = c.in_w = hw, c.in_c = in_c, c.out_c = out_c, c.kernel_h = c.kernel_w = k, c.groups = groups;
  set_padding(c, ConvPadding::same);
  return c;
}
McuChip m7(std::vector<std::string> extra = {}) {
  std::vector<std::string> o = {"mcu.cmsis_nn.efficiency=0.5", "mcu.cmsis_nn.pointwise_efficiency=0.8",
                                "mcu.cmsis_nn.depthwise_efficiency=0.25", "mcu.cmsis_nn.fc_efficiency=0.4",
                                "mcu.cmsis_nn.shallow_input_efficiency=0.1", "mcu.cmsis_nn.output_cycles=3"};
  o.insert(o.end(), extra.begin(), extra.end());
  return McuChip::from_config(load_chip(chip_file("cortex_m7_stm32h7"), o));
}
double cycles(const Op& op, const McuChip& chip) { return lower_mcu_op(op, chip, Home::sram).cycles; }
}  // namespace

TEST_CASE("mcu cpu: each layer type at its own kernel rate, plus the output stage") {
  McuChip chip = m7();
  ConvOp k3 = conv(8, 16, 16, 3), pw = conv(8, 16, 16, 1), dw = conv(8, 16, 16, 3, 16), stem = conv(8, 1, 16, 3);
  double outputs = 8 * 8 * 16;
  CHECK(cycles(Op{"k3", "conv", k3}, chip) == doctest::Approx(conv_macs(k3) / (2 * 0.5) + outputs * 3));
  CHECK(cycles(Op{"pw", "conv", pw}, chip) == doctest::Approx(conv_macs(pw) / (2 * 0.8) + outputs * 3));
  CHECK(cycles(Op{"dw", "dwconv", dw}, chip) == doctest::Approx(conv_macs(dw) / (2 * 0.25) + outputs * 3));
  CHECK(cycles(Op{"stem", "conv", stem}, chip) == doctest::Approx(conv_macs(stem) / (2 * 0.1) + outputs * 3));
  GemmOp fc;
  fc.m = 1, fc.n = 128, fc.k = 640, fc.a = fc.b = fc.out = DType::int8;
  CHECK(cycles(Op{"fc", "fc", fc}, chip) == doctest::Approx(128.0 * 640 / (2 * 0.4) + 128 * 3));
  // Unset (0), the newer rates fall back to the conv's efficiency; the one-channel conv to its own.
  McuChip plain = m7({"mcu.cmsis_nn.pointwise_efficiency=0", "mcu.cmsis_nn.fc_efficiency=0",
                      "mcu.cmsis_nn.shallow_input_efficiency=0"});
  CHECK(cycles(Op{"pw", "conv", pw}, plain) == doctest::Approx(conv_macs(pw) / (2 * 0.5) + outputs * 3));
  CHECK(cycles(Op{"fc", "fc", fc}, plain) == doctest::Approx(128.0 * 640 / (2 * 0.5) + 128 * 3));
  CHECK(cycles(Op{"stem", "conv", stem}, plain) == doctest::Approx(conv_macs(stem) / (2 * 0.5) + outputs * 3));
}

TEST_CASE("mcu cpu: a miss to flash-resident weights stalls the core, SRAM weights do not") {
  // The L4R5: no data cache, a 64-bit flash word per miss, 5 wait states: 5/8 cycle per byte read.
  McuChip l4 = McuChip::from_config(load_chip(chip_file("cortex_m4_stm32l4r5"), {}));
  CHECK(l4.flash_fetch.stall_cycles_per_byte() == doctest::Approx(5.0 / 8));
  GemmOp fc;
  fc.m = 1, fc.n = 128, fc.k = 640, fc.a = fc.b = fc.out = DType::int8;
  McuWork flash = lower_mcu_op(Op{"fc", "fc", fc}, l4, Home::flash);
  CHECK(flash.stall_cycles == doctest::Approx(flash.weight_traffic * 5.0 / 8));
  CHECK(flash.stall_cycles > 0.3 * flash.cycles);
  CHECK(lower_mcu_op(Op{"fc", "fc", fc}, l4, Home::sram).stall_cycles == 0);
  // The H7: a 32 B D-cache line is two 128-bit flash words, 6 wait states each, plus the bus overhead.
  McuChip h7 = McuChip::from_config(load_chip(chip_file("cortex_m7_stm32h7"), {"memory.flash.miss_overhead=4"}));
  CHECK(h7.flash_fetch.stall_cycles_per_byte() == doctest::Approx((2 * 6 + 4) / 32.0));
}
