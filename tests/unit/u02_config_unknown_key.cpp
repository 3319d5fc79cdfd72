// An unknown key names the file, the line, the full key path, and the closest declared key.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: unknown key in a file names file:line and the full key path with a did-you-mean") {
  std::string file = fixture("config/bad/unknown_key.toml");
  std::string line = config_error_line(file);
  // bandwith is on line 5 of the fixture, inside [memory.hbm].
  CHECK(line.rfind(file + ":5: memory.hbm.bandwith: unknown key", 0) == 0);
  CHECK(contains(line, "(did you mean memory.hbm.bandwidth?)"));
  CHECK(line.find('\n') == std::string::npos);
}

TEST_CASE("config: unknown key in --set names --set and suggests the declared key") {
  std::string line = config_error_line(chip_file("h100"), {"gpu.sm_cont=100"});
  CHECK(line.rfind("--set: gpu.sm_cont: unknown key", 0) == 0);
  CHECK(contains(line, "did you mean gpu.sm_count?"));
}
