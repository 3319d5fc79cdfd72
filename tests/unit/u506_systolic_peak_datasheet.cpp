// The shipped TPUs reproduce their datasheet peaks from the array shape: TensorCores × MXUs ×
// rows × cols × MACs per cell × 2 FLOP × clock.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "models/systolic/systolic_chip.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
SystolicChip chip(const char* name) { return SystolicChip::from_config(load_chip(chip_file(name), {})); }
}  // namespace

TEST_CASE("systolic peak: v4, v5e, v5p and v6e against Google's figures") {
  CHECK(chip("tpu_v4").peak_flop_rate(DType::bf16) == doctest::Approx(275e12).epsilon(0.005));
  CHECK(chip("tpu_v4").peak_flop_rate(DType::int8) == doctest::Approx(275e12).epsilon(0.005));
  CHECK(chip("tpu_v5e").peak_flop_rate(DType::bf16) == doctest::Approx(197e12).epsilon(0.005));
  CHECK(chip("tpu_v5e").peak_flop_rate(DType::int8) == doctest::Approx(393e12).epsilon(0.005));
  CHECK(chip("tpu_v5p").peak_flop_rate(DType::bf16) == doctest::Approx(459e12).epsilon(0.005));
  CHECK(chip("tpu_v5p").peak_flop_rate(DType::int8) == doctest::Approx(918e12).epsilon(0.005));
  CHECK(chip("tpu_v6e").peak_flop_rate(DType::bf16) == doctest::Approx(918e12).epsilon(0.005));
  CHECK(chip("tpu_v6e").peak_flop_rate(DType::int8) == doctest::Approx(1836e12).epsilon(0.005));
  // v5p in detail: 2 TC × 4 MXU × 128² × 2 × 1.75 GHz.
  CHECK(chip("tpu_v5p").peak_flop_rate(DType::bf16) == doctest::Approx(2.0 * 4 * 128 * 128 * 2 * 1.75e9));
  CHECK_FALSE(chip("tpu_v5e").supports(DType::fp8));
  CHECK(chip("tpu_v6e").supports(DType::fp8));
}
