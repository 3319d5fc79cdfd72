// CMSIS-NN on a core reads a conv's filters once per pass of output pixels: from flash without a
// cache that holds them, each pass costs flash traffic; with a D-cache that holds them, or weights in
// SRAM, one read. The M7 at 0.5 efficiency without the output stage: 2 pixels per pass, 1 MAC per cycle;
// each miss to flash-resident filters stalls the core 2 flash words x 6 wait states per 32 B line.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/mcu/mcu_chip.h"
#include "models/mcu/mcu_lowering.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("cpu conv: flash re-reads without a cache, one read with it") {
  ConvOp c;  // 8x8x64 → 64, 3x3: weights 64·64·9 + 64·8 = 37,376 B > the 16 KiB D-cache
  c.in_h = c.in_w = 8, c.in_c = c.out_c = 64, c.kernel_h = c.kernel_w = 3;
  set_padding(c, ConvPadding::same);
  const std::vector<std::string> rates = {"mcu.cmsis_nn.efficiency=0.5", "mcu.cmsis_nn.output_cycles=0"};
  McuChip m7 = McuChip::from_config(load_chip(chip_file("cortex_m7_stm32h7"), rates));
  McuWork flash = lower_mcu_op(Op{"c", "conv", c}, m7, Home::flash);
  CHECK(flash.weight_bytes == 37376);
  CHECK(flash.weight_traffic == 37376.0 * 32);  // 64 pixels / 2 per pass
  CHECK(flash.cycles == doctest::Approx(conv_macs(c) / 1.0));
  CHECK(flash.stall_cycles == doctest::Approx(37376.0 * 32 * 12 / 32));
  McuWork sram = lower_mcu_op(Op{"c", "conv", c}, m7, Home::sram);
  CHECK(sram.weight_traffic == 37376);
  CHECK(sram.stall_cycles == 0);
  McuChip big_cache = McuChip::from_config(load_chip(chip_file("cortex_m7_stm32h7"), {"mcu.dcache.size=64KiB"}));
  CHECK(lower_mcu_op(Op{"c", "conv", c}, big_cache, Home::flash).weight_traffic == 37376);
}
