// A TOML syntax error names the file and the line of the mistake.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: TOML syntax error with its line") {
  std::string file = fixture("config/bad/syntax_error.toml");
  std::string line = config_error_line(file);
  // The unterminated string is on line 4.
  CHECK(line.rfind(file + ":4:", 0) == 0);
  CHECK(contains(line, "TOML syntax error"));
  CHECK(line.find('\n') == std::string::npos);
}
