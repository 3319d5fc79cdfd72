// --json FILE writes one JSON document with the documented top-level schema (README "JSON output").
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: --json writes hwsim chip workload level config and result") {
  auto json = scratch_dir() / "out.json";
  CliRun r = run_hwsim("--chip configs/h100.toml --workload gemm:M=2048,N=2048,K=2048,dtype=bf16 --set "
                       "memory.hbm.bandwidth=4TB/s --quiet --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  CHECK(doc["hwsim"].is_string());
  CHECK(doc["chip"]["name"] == "H100 SXM5 80GB");
  CHECK(doc["chip"]["file"] == "configs/h100.toml");
  CHECK(doc["workload"]["spec"] == "gemm:M=2048,N=2048,K=2048,dtype=bf16");
  CHECK(doc["workload"]["kind"] == "gemm");
  CHECK(doc["level"] == "tile");
  // The resolved configuration: the --set override, and values from the file.
  CHECK(doc["config"]["memory"]["hbm"]["bandwidth"] == "4TB/s");
  CHECK(doc["config"]["gpu"]["sm_count"] == 132);
  const auto& result = doc["result"];
  CHECK(result["seconds"].get<double>() > 0);
  CHECK(result["flops"].get<double>() == 2.0 * 2048 * 2048 * 2048);
  CHECK(result["roofline_floor"].get<double>() <= result["seconds"].get<double>());
  for (const char* key : {"achieved_flop_rate", "peak_flop_rate", "percent_of_peak", "arithmetic_intensity",
                          "ridge_point", "bound", "bytes", "bandwidth", "time_breakdown", "steps"})
    CHECK_MESSAGE(result.contains(key), key);
  REQUIRE(result["steps"].size() == 1);
  REQUIRE(result["steps"][0]["kernels"].size() == 1);
  const auto& kernel = result["steps"][0]["kernels"][0];
  for (const char* key : {"name", "op_class", "config", "dtype", "start", "end", "seconds", "flops", "bytes", "ctas",
                          "waves", "roofline_floor", "bound", "time_breakdown"})
    CHECK_MESSAGE(kernel.contains(key), key);
}
