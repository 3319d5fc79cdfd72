// Scoped configuration: a systolic chip takes the systolic keys (and the shared HBM and power
// keys) only. A misspelt key names its component and the key it resembles; a GPU key is refused
// as not a parameter of a systolic chip; an array of zero cells is refused by the loader.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("systolic config: a misspelt MXU key names [systolic.mxu] and suggests the key") {
  std::string line = config_error_line(fixture("systolic/bad_mxu_key.toml"));
  CHECK(contains(line, "bad_mxu_key.toml:"));
  CHECK(contains(line, "systolic.mxu.rowz: unknown key in [systolic.mxu] of a systolic chip"));
  CHECK(contains(line, "did you mean systolic.mxu.rows?"));
}

TEST_CASE("systolic config: a GPU key in a systolic chip is not a parameter of it") {
  std::string line = config_error_line(fixture("systolic/gpu_key.toml"));
  CHECK(contains(line, "gpu.sm_count: not a parameter of a systolic chip"));
}

TEST_CASE("systolic config: an MXU of zero rows or columns is refused") {
  CHECK(contains(config_error_line(chip_file("tpu_v5e"), {"systolic.mxu.rows=0"}), "systolic.mxu.rows"));
  CHECK(contains(config_error_line(chip_file("tpu_v5e"), {"systolic.mxu.cols=0"}), "systolic.mxu.cols"));
}

TEST_CASE("systolic config: every shipped TPU loads") {
  for (const char* chip : {"tpu_v4", "tpu_v5e", "tpu_v5p", "tpu_v6e"}) {
    hwsim::Config c = hwsim::load_chip(chip_file(chip), {});
    CHECK(c.text("kind") == "systolic");
  }
}
