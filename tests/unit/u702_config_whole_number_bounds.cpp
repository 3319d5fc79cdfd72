// Whole-number keys have bounds: a declared at_most (the sizes a model allocates state for) and,
// for every count, the range of a 32-bit int; beyond them one line names the key and the bound.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: an SM count beyond the declared bound is refused with the bound") {
  std::string line = config_error_line(chip_file("h100"), {"gpu.sm_count=3000000000"});
  CHECK(line == "--set: gpu.sm_count: 3000000000 is out of range (a whole number between 1 and 100000)");
}

TEST_CASE("config: a count beyond a 32-bit int is refused even without a declared bound") {
  std::string line = config_error_line(chip_file("h100"), {"gpu.tile.cluster_size=4294967296"});
  CHECK(contains(line, "gpu.tile.cluster_size: 4294967296 is out of range (a whole number between 1 and 2147483647)"));
}

TEST_CASE("config: a systolic array edge beyond its bound is refused") {
  std::string line = config_error_line(chip_file("tpu_v5e"), {"systolic.mxu.rows=3000000000"});
  CHECK(contains(line, "systolic.mxu.rows: 3000000000 is out of range (a whole number between 1 and 65536)"));
}
