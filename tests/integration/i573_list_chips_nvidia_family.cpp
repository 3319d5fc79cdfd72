// `hwsim list chips` shows the NVIDIA family from an RTX 4090 to a GB200, the uncalibrated ones
// marked so.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: list chips shows the new NVIDIA chips with honest descriptions") {
  CliRun r = run_hwsim("list chips");
  REQUIRE(r.exit_code == 0);
  for (const char* chip : {"rtx4090", "rtx5090", "l40s", "a100", "b200", "gb200"}) {
    CAPTURE(chip);
    bool found = false;
    for (const auto& line : lines_of(r.out))
      if (line.rfind(chip, 0) == 0 || contains(line, std::string(" ") + chip + " ")) {
        found = true;
        if (std::string(chip) != "a100") CHECK(contains(line, "uncalibrated"));
      }
    CHECK(found);
  }
}
