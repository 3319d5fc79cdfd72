// Peak dense rate per dtype of each new NVIDIA chip file = the datasheet figure, within 1 %:
// flops_per_clock × SMs × clock, by hand from the numbers NVIDIA prints (dense = sparse / 2).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "ops/device.h"
#include "models/gpu/gpu_chip.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
struct Peak { DType dtype; DType acc; double tflops; };

void check_peaks(const std::string& name, int sms, double ghz, const std::vector<Peak>& peaks) {
  CAPTURE(name);
  GpuChip chip = GpuChip::from_config(load_chip(chip_file(name), {}));
  CHECK(chip.sm_count == sms);
  CHECK(chip.clock_hz == doctest::Approx(ghz * 1e9));
  for (const Peak& p : peaks) {
    CAPTURE(dtype_name(p.dtype));
    CAPTURE(dtype_name(p.acc));
    CHECK(chip.peak_flop_rate(p.dtype, p.acc) / 1e12 == doctest::Approx(p.tflops).epsilon(0.01));
  }
}
}  // namespace

TEST_CASE("peak rates: RTX 4090 (Ada WP, at 2.52 GHz), FP16/FP8 with FP32 and FP16 accumulate") {
  using enum DType;
  check_peaks("rtx4090", 128, 2.52,
              {{fp32, fp32, 82.6}, {tf32, fp32, 82.6}, {bf16, fp32, 165.2}, {fp16, fp32, 165.2},
               {fp16, fp16, 330.3}, {fp8, fp32, 330.3}, {fp8, fp16, 660.6}, {int8, fp32, 660.6},
               {bf16, fp16, 165.2}});  // BF16 has no FP16 accumulate: its FP32-accumulate rate
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("rtx4090"), {}));
  CHECK_FALSE(chip.supports(DType::fp4));
  CHECK_FALSE(chip.supports(DType::fp6));
}

TEST_CASE("peak rates: RTX 5090 (170 SMs at 2.407 GHz): FP4 3352 sparse, FP16 838 sparse") {
  using enum DType;
  check_peaks("rtx5090", 170, 2.407,
              {{fp32, fp32, 104.8}, {bf16, fp32, 209.5}, {fp16, fp32, 209.5}, {fp16, fp16, 838.4 / 2},
               {fp8, fp32, 419.0}, {fp8, fp16, 1676.8 / 2}, {fp4, fp32, 3352.0 / 2}, {int8, fp32, 838.0}});
}

TEST_CASE("peak rates: L40S (142 SMs at 2.52 GHz): datacenter Ada, FP16 accumulate at the same rate") {
  using enum DType;
  check_peaks("l40s", 142, 2.52,
              {{fp32, fp32, 91.6}, {tf32, fp32, 183.0}, {bf16, fp32, 733.0 / 2}, {fp16, fp32, 733.0 / 2},
               {fp16, fp16, 733.0 / 2}, {fp8, fp32, 733.0}, {fp8, fp16, 733.0}, {int8, fp32, 733.0}});
}

TEST_CASE("peak rates: B200 (HGX, 1000 W) and GB200 (1200 W) per GPU") {
  using enum DType;
  check_peaks("b200", 148, 1.856,
              {{fp4, fp32, 9000}, {fp6, fp32, 4500}, {fp8, fp32, 4500}, {fp8, fp16, 4500}, {int8, fp32, 4500},
               {bf16, fp32, 2250}, {fp16, fp32, 2250}, {fp16, fp16, 2250}, {tf32, fp32, 1125}});
  check_peaks("gb200", 148, 2.062,
              {{fp4, fp32, 10000}, {fp6, fp32, 5000}, {fp8, fp32, 5000}, {int8, fp32, 5000},
               {bf16, fp32, 2500}, {fp16, fp32, 2500}, {tf32, fp32, 1250}});
}

TEST_CASE("peak rates: H100 and A100 have no FP4/FP6; FP16 accumulate runs at the FP16 rate") {
  for (const char* name : {"h100", "a100"}) {
    CAPTURE(name);
    GpuChip chip = GpuChip::from_config(load_chip(chip_file(name), {}));
    CHECK_FALSE(chip.supports(DType::fp4));
    CHECK_FALSE(chip.supports(DType::fp6));
    CHECK(chip.peak_flop_rate(DType::fp16, DType::fp16) == chip.peak_flop_rate(DType::fp16));
    CHECK(chip.peak_flop_rate(DType::fp8, DType::fp16) == chip.peak_flop_rate(DType::fp8));
  }
}
