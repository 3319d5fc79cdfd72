// A chip file or an extends parent that does not exist is reported by name.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: missing extends parent") {
  std::string file = fixture("config/bad/missing_parent.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":2: extends: no such file 'no_such_parent.toml'", 0) == 0);
}

TEST_CASE("config: missing chip file") {
  std::string file = fixture("config/bad/does_not_exist.toml");
  CHECK(config_error_line(file) == file + ": no such chip file");
}

TEST_CASE("config: unknown chip name lists the shipped chips") {
  std::string line = config_error_line("h1000");
  CHECK(contains(line, "unknown chip"));
  CHECK(contains(line, "h100"));
  CHECK(contains(line, "did you mean h100?"));
}

TEST_CASE("config: a bare chip name finds configs/NAME.toml, with or without .toml") {
  CHECK(load_chip("tpu_v5e", {}).chip_path().ends_with("configs/tpu_v5e.toml"));
  CHECK(load_chip("tpu_v5e.toml", {}).chip_path().ends_with("configs/tpu_v5e.toml"));
  CHECK(load_chip("tpu_v5e", {}).kind() == "systolic");
  std::string line = config_error_line("tpu_v5f.toml");
  CHECK(contains(line, "--chip tpu_v5f.toml: unknown chip"));
  CHECK(contains(line, "did you mean tpu_v5e?"));
}
