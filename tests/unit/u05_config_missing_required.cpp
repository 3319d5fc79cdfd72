// A required key that no file in the extends chain sets is reported with its type and meaning.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: missing required key") {
  std::string file = fixture("config/bad/missing_required.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ": gpu.sm.clock: missing required key", 0) == 0);
  CHECK(contains(line, "frequency"));  // its type, so the user knows what to write
}
