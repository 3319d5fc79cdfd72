// `hwsim --chip cortex_m55_u55 --workload kws_dscnn` prints the microcontroller report in its own
// words (no GPU vocabulary) and the JSON carries result.inference.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli mcu: kws_dscnn on cortex_m55_u55 reports latency, energy, bytes and engines") {
  auto json = scratch_dir() / "kws.json";
  CliRun r = run_hwsim("--chip cortex_m55_u55 --workload kws_dscnn --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  for (const char* s : {"latency per inference", "inferences per second", "MACs per cycle (achieved)",
                        "energy per inference", "activation arena (peak)", "fell back to the CPU", "npu 1x1"})
    CHECK_MESSAGE(contains(r.out, s), s);
  for (const char* s : {"SMs", "HBM", "TFLOP/s", "L2"}) CHECK_MESSAGE(!contains(r.out, s), s);
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& inf = doc["result"]["inference"];
  CHECK(inf["macs"].get<double>() == 2656768);
  CHECK(inf["fallbacks"].size() == 0);
  CHECK(inf["latency"].get<double>() > 0);
}

TEST_CASE("cli mcu: list chips shows the three microcontrollers") {
  CliRun r = run_hwsim("list chips");
  REQUIRE(r.exit_code == 0);
  for (const char* chip : {"cortex_m7_stm32h7", "cortex_m55_u55", "cortex_m85"}) CHECK_MESSAGE(contains(r.out, chip), chip);
}

TEST_CASE("cli mcu: a stride-4 conv falls back to the CPU and the report says where and what it cost") {
  CliRun r = run_hwsim("--chip cortex_m55_u55 -w conv:h=32,in_c=16,out_c=16,stride=4");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "fell back to the CPU         1 ops"));
  CHECK(contains(r.out, "stride 4 > npu.max_stride 3"));
}
