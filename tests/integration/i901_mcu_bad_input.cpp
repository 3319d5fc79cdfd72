// Bad input on a microcontroller: one stderr line, nothing on stdout, a non-zero exit.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
void one_line(const CliRun& r, int code, const std::string& text) {
  CHECK(r.exit_code == code);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK_MESSAGE(contains(lines[0], text), lines[0]);
  CHECK(r.out.empty());
}
}  // namespace

TEST_CASE("cli mcu: fp8 on a Cortex-M55 exits 4") {
  one_line(run_hwsim("--chip cortex_m55_u55 -w conv:h=16,in_c=8,out_c=8,dtype=fp8"), 4,
           "conv: fp8 is not supported by cortex_m55_u55: a Cortex-M55 core has no fp8 arithmetic");
}

TEST_CASE("cli mcu: a kernel larger than its input exits 4") {
  one_line(run_hwsim("--chip cortex_m7_stm32h7 -w conv:h=4,in_c=8,kernel=7,padding=valid"), 4,
           "kernel 7x7 is larger than its padded input 4x4");
}

TEST_CASE("cli mcu: an NPU key on a chip without an NPU exits 3") {
  one_line(run_hwsim("--chip cortex_m7_stm32h7 -w kws_dscnn --set npu.ublock.depth=4"), 3,
           "npu.ublock.depth: cortex_m7_stm32h7 has no NPU (npu.macs_per_cycle is 0)");
}

TEST_CASE("cli mcu: a model that does not fit SRAM and flash exits 4") {
  one_line(run_hwsim("--chip cortex_m7_stm32h7 -w vww_mobilenet --set memory.sram.size=40KiB"), 4,
           "the model does not fit cortex_m7_stm32h7: its activation arena needs 55.3 kB at its peak (op pw1), the "
           "SRAM holds 41 kB");
  one_line(run_hwsim("--chip cortex_m7_stm32h7 -w vww_mobilenet --set memory.sram.size=100KiB --set "
                     "memory.flash.size=100KiB"), 4, "its weights need 230 kB");
}
