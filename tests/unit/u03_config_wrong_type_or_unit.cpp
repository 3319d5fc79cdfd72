// A value of the wrong type, or a quantity of the wrong dimension, is one line naming the key
// and what was expected.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: a string where a count belongs") {
  std::string file = fixture("config/bad/wrong_type.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":4: gpu.sm_count: expected a whole number >= 1", 0) == 0);
}

TEST_CASE("config: a fractional count is the wrong type") {
  std::string line = config_error_line(chip_file("h100"), {"gpu.sm_count=1.5"});
  CHECK(contains(line, "gpu.sm_count: expected a whole number >= 1"));
}

TEST_CASE("config: a frequency where a bandwidth belongs") {
  std::string file = fixture("config/bad/wrong_unit.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":4: memory.hbm.bandwidth:", 0) == 0);
  CHECK(contains(line, "'3 GHz' is a frequency, expected a bandwidth"));
}

TEST_CASE("config: a quantity without its unit") {
  std::string line = config_error_line(chip_file("h100"), {"memory.hbm.bandwidth=3.35"});
  CHECK(contains(line, "memory.hbm.bandwidth:"));
  CHECK(contains(line, "expected a bandwidth"));
}

TEST_CASE("config: nonsense units are rejected") {
  CHECK(contains(config_error_line(chip_file("h100"), {"memory.hbm.bandwidth=3 TB/ss"}), "unknown unit 'TB/ss'"));
  CHECK(contains(config_error_line(chip_file("h100"), {"gpu.sm.clock=fast"}), "gpu.sm.clock"));
}
