// A layout of one rank on a system uses no link and one device: the same simulation as on the
// system's chip (h200x2's chip is h200), to the last digit.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli system: one rank on h200x2 is the same run as on --chip h200") {
  auto a = scratch_dir() / "system.json", b = scratch_dir() / "chip.json";
  REQUIRE(run_hwsim("--system h200x2 -w decode_llama8b --quiet --json '" + a.string() + "'").exit_code == 0);
  REQUIRE(run_hwsim("--chip h200 -w decode_llama8b --quiet --json '" + b.string() + "'").exit_code == 0);
  auto system = nlohmann::json::parse(read_text(a)), chip = nlohmann::json::parse(read_text(b));
  CHECK(system["result"]["seconds"].get<double>() == doctest::Approx(chip["result"]["seconds"].get<double>()).epsilon(1e-12));
  CHECK(system["result"]["system"]["link_bytes"].get<double>() == 0);
}
