// An LLM run's JSON carries result.llm (README "JSON output"), beside the kernel timeline.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli: a decode run writes result.llm with tokens and MBU and memory") {
  auto json = scratch_dir() / "llm.json";
  CliRun r = run_hwsim("--chip configs/h100.toml --workload decode_llama8b:layers=2,batch=4 --quiet --json '" +
                       json.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& llm = doc["result"]["llm"];
  for (const char* key : {"tokens", "seconds", "tokens_per_second", "ttft", "tpot", "decode_tokens_per_second", "mbu",
                          "mfu", "time_by_class", "steps", "farthest_from_floor", "memory"})
    CHECK_MESSAGE(llm.contains(key), key);
  CHECK(llm["tokens"] == 4);
  CHECK(llm["steps"].size() == 1);
  CHECK(llm["steps"][0]["phase"] == "decode");
  CHECK(llm["memory"]["batch"] == 4);
  CHECK(llm["memory"]["context"] == 513);
  CHECK(llm["time_by_class"].contains("gemm"));
  CHECK(llm["time_by_class"].contains("launch_gaps"));
  CHECK(doc["result"]["steps"][0]["kernels"].size() > 0);  // the timeline stays
}

TEST_CASE("cli: a gemm run has no result.llm") {
  auto json = scratch_dir() / "gemm.json";
  CliRun r = run_hwsim("--chip configs/h100.toml --workload gemm:M=64,N=64,K=64 --quiet --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(nlohmann::json::parse(read_text(json))["result"].contains("llm"));
}
