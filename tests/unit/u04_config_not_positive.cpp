// Zero or negative values where they are physically impossible are rejected.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: zero bandwidth") {
  std::string file = fixture("config/bad/zero_bandwidth.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":4: memory.hbm.bandwidth: must be greater than zero", 0) == 0);
}

TEST_CASE("config: zero SMs") {
  std::string file = fixture("config/bad/zero_sm_count.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":4: gpu.sm_count:", 0) == 0);
  CHECK(contains(line, "a whole number between 1 and"));
}

TEST_CASE("config: negative latency") {
  std::string file = fixture("config/bad/negative_latency.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":4: memory.l2.latency:", 0) == 0);
  CHECK(contains(line, "negative"));
}

TEST_CASE("config: efficiencies must be fractions above zero and at most one") {
  CHECK(contains(config_error_line(chip_file("h100"), {"memory.hbm.efficiency=0"}), "memory.hbm.efficiency"));
  CHECK(contains(config_error_line(chip_file("h100"), {"gpu.tile.tensor_efficiency=1.5"}), "out of range"));
}
