// `hwsim list chips` shows the AMD chips; MI325X runs with its own HBM (6 TB/s peak in the JSON).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: mi300x and mi325x are listed, mi325x decodes with 6 TB/s HBM") {
  CliRun list = run_hwsim("list chips");
  REQUIRE(list.exit_code == 0);
  CHECK(contains(list.out, "mi300x"));
  CHECK(contains(list.out, "mi325x"));
  auto json = scratch_dir() / "mi325x.json";
  CliRun r = run_hwsim("--chip mi325x -w decode_llama8b --quiet --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  CHECK(doc["result"]["bandwidth"]["hbm_peak"].get<double>() == 6e12);
  CHECK(doc["result"]["tdp"].get<double>() == 1000);
}
