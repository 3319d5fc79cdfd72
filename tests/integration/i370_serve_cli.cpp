// The serve workload from the command line: the JSON result.serving fields and the text section.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli serve: result.serving holds the serving benchmark's figures") {
  auto json = scratch_dir() / "serve.json";
  CliRun r = run_hwsim("--chip h100 -w serve:model=llama3_8b,layers=2,requests=8,rate=100,prompt=64,output=8,"
                       "slo_ttft=0.01 --json '" + json.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "KV cache capacity"));
  CHECK(contains(r.out, "TTFT"));
  auto doc = nlohmann::json::parse(read_text(json));
  const auto& s = doc["result"]["serving"];
  for (const char* k : {"kv_capacity_tokens", "output_tokens_per_s", "total_tokens_per_s", "requests_per_s"})
    CHECK_MESSAGE(s.contains(k), k);
  for (const char* k : {"ttft_s", "tpot_s", "itl_s", "e2e_s"})
    for (const char* q : {"mean", "p50", "p90", "p99"}) CHECK_MESSAGE(s[k].contains(q), k, q);
  CHECK(s["output_tokens"] == 64);
  CHECK(s["requests"] == 8);
  CHECK(s["output_tokens_per_s"].get<double>() * s["duration_s"].get<double>() == doctest::Approx(64));
  CHECK(s["ttft_s"]["p50"].get<double>() <= s["ttft_s"]["p99"].get<double>());
}
