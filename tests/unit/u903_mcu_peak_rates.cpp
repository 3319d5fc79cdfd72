// The shipped microcontrollers' peak rates from their ISA facts: MACs per cycle x 2 x clock, and the
// Ethos-U55-256's micro-block step (2x2x8 OFM elements x 32 IFM channels / 256 MACs = 4 cycles).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/mcu/mcu_chip.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
McuChip chip(const char* name) { return McuChip::from_config(load_chip(chip_file(name), {})); }
}  // namespace

TEST_CASE("mcu peak: Cortex-M7 SMLAD, Helium on M55 and M85, Ethos-U55-256") {
  McuChip m7 = chip("cortex_m7_stm32h7"), m55 = chip("cortex_m55_u55"), m85 = chip("cortex_m85");
  CHECK(m7.cpu_peak_flop_rate(DType::int8) == doctest::Approx(2 * 2 * 280e6));
  CHECK(m7.cpu_peak_flop_rate(DType::fp32) == doctest::Approx(2 * 1 * 280e6));
  CHECK_FALSE(m7.supports(DType::fp16));
  CHECK_FALSE(m7.npu.present());
  CHECK(m55.cpu_peak_flop_rate(DType::int8) == doctest::Approx(2 * 8 * 400e6));
  CHECK(m55.npu_peak_flop_rate() == doctest::Approx(2 * 256 * 400e6));  // 0.2048 TOPS
  CHECK(m55.npu.ublock_step_cycles() == 4);
  CHECK(m55.npu.axi_bandwidth == doctest::Approx(3.2e9));
  CHECK(m85.cpu_peak_flop_rate(DType::int8) == doctest::Approx(2 * 8 * 480e6));
  for (DType t : {DType::fp8, DType::bf16, DType::int4}) CHECK_FALSE(m55.supports(t));
  CHECK(m55.flash.bandwidth == doctest::Approx(0.125 * 8 * 400e6));  // Vela's flash clock scale
}
