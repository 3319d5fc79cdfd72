// An extends chain that comes back to a file already being loaded is an error, not a hang.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: extends cycle") {
  std::string line = config_error_line(fixture("config/bad/cycle_a.toml"));
  CHECK(contains(line, "extends: cycle"));
  CHECK(contains(line, "cycle_a.toml"));
  CHECK(contains(line, "cycle_b.toml"));
}
