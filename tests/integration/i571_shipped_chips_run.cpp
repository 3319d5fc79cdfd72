// Every shipped NVIDIA and TPU chip file loads and runs a GEMM and Llama-3-8B decoding (bf16:
// 16.1 GB of weights, which fits every one of them, the 24 GB RTX 4090 and the 16 GiB TPU v5e
// included). One test case per chip, so they run in parallel.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
void runs_gemm_and_decode(const std::string& chip) {
  CAPTURE(chip);
  auto json = scratch_dir() / (chip + ".json");
  CliRun g = run_hwsim("--chip " + chip + " -w gemm:M=2048,N=2048,K=2048,dtype=bf16 --quiet --json '" + json.string() + "'");
  REQUIRE(g.exit_code == 0);
  auto doc = nlohmann::json::parse(read_text(json));
  CHECK(doc["result"]["seconds"].get<double>() >= doc["result"]["roofline_floor"].get<double>());
  CliRun d = run_hwsim("--chip " + chip + " -w decode_llama8b --quiet --json '" + json.string() + "'");
  REQUIRE(d.exit_code == 0);
  doc = nlohmann::json::parse(read_text(json));
  CHECK(doc["result"]["llm"]["tokens_per_second"].get<double>() > 0);
}
}  // namespace

TEST_CASE("shipped chips: rtx4090") { runs_gemm_and_decode("rtx4090"); }
TEST_CASE("shipped chips: rtx5090") { runs_gemm_and_decode("rtx5090"); }
TEST_CASE("shipped chips: l40s") { runs_gemm_and_decode("l40s"); }
TEST_CASE("shipped chips: a100") { runs_gemm_and_decode("a100"); }
TEST_CASE("shipped chips: h100") { runs_gemm_and_decode("h100"); }
TEST_CASE("shipped chips: h200") { runs_gemm_and_decode("h200"); }
TEST_CASE("shipped chips: b200") { runs_gemm_and_decode("b200"); }
TEST_CASE("shipped chips: gb200") { runs_gemm_and_decode("gb200"); }
TEST_CASE("shipped chips: tpu_v4") { runs_gemm_and_decode("tpu_v4"); }
TEST_CASE("shipped chips: tpu_v5e") { runs_gemm_and_decode("tpu_v5e"); }
TEST_CASE("shipped chips: tpu_v5p") { runs_gemm_and_decode("tpu_v5p"); }
TEST_CASE("shipped chips: tpu_v6e") { runs_gemm_and_decode("tpu_v6e"); }
