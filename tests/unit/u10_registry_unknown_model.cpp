// Asking the registry for a device kind nobody registered is a configuration error listing the known ones.
#include <doctest/doctest.h>

#include "ops/device.h"
#include "sim/registry.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("registry: an unknown device kind lists the registered ones") {
  Config config = load_chip(chip_file("h100"), {});
  try {
    Registry<Device>::create("gpuu", config, "kind");
    FAIL("an unknown model was created");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    std::string line = e.what();
    CHECK(line.rfind("kind: unknown device 'gpuu'", 0) == 0);
    CHECK(contains(line, "known: "));
    for (const auto& name : Registry<Device>::names()) CHECK(contains(line, name));
    CHECK(contains(line, "did you mean gpu?"));
  }
}
