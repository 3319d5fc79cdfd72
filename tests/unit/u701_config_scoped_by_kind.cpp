// Scoped configuration: a chip's `kind` chooses which components and keys it has. Only those are
// validated, defaulted or required; another kind's key, an unknown key or an unknown kind is one
// line naming the component, the key and the kind.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "tests/fixtures/test_support.h"
#include "tests/unit/u7_fake_device.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: a chip of another kind needs none of the GPU's required keys") {
  Config c = load_chip(fixture("config/good/fake_device.toml"), {});
  CHECK(c.kind() == "fake");
  CHECK(c.number("fake.sram") == 1024.0 * 1024);
  CHECK_THROWS_AS(c.number("gpu.sm_count"), std::logic_error);  // not a key of this chip
}

TEST_CASE("config: a GPU key in a fake chip is not a parameter of that kind") {
  std::string file = fixture("config/bad/fake_with_gpu_key.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":5: gpu.sm_count: not a parameter of a fake chip", 0) == 0);
  CHECK(contains(line, "gpu"));
}

TEST_CASE("config: a fake key in a GPU chip is not a parameter of a gpu chip") {
  std::string line = config_error_line(chip_file("h100"), {"fake.sram=1 MiB"});
  CHECK(line.rfind("--set: fake.sram: not a parameter of a gpu chip (a parameter of fake chips", 0) == 0);
}

TEST_CASE("config: an unknown key names its component and the chip's kind, with a did-you-mean of that kind") {
  std::string line = config_error_line(fixture("config/good/fake_device.toml"), {"fake.sramm=1 MiB"});
  CHECK(line == "--set: fake.sramm: unknown key in [fake] of a fake chip (did you mean fake.sram?)");
}

TEST_CASE("config: an unknown kind lists the registered device kinds") {
  std::string file = fixture("config/bad/unknown_kind.toml");
  std::string line = config_error_line(file);
  CHECK(line.rfind(file + ":2: kind: 'tpu' is not a device kind; known: ", 0) == 0);
  CHECK(contains(line, "fake"));
  CHECK(contains(line, "gpu"));
}
