// The language-model workloads run on the TPU chips (systolic device, XLA-fused ops): exit 0, a
// positive simulated time above the roofline floor, records that carry the TPU details.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/json_run.h"

using namespace hwsim::test;

namespace {
nlohmann::json run_json(const std::string& args) {
  static int n = 0;
  return run_hwsim_json(args, "tpu" + std::to_string(++n) + ".json");
}
}  // namespace

TEST_CASE("cli: decode_llama8b on TPU v5p") {
  auto doc = run_json("--chip tpu_v5p -w decode_llama8b");
  const auto& result = doc["result"];
  CHECK(doc["level"] == "tile");
  CHECK(result["seconds"].get<double>() > result["roofline_floor"].get<double>());
  CHECK(result["seconds"].get<double>() < 3 * result["roofline_floor"].get<double>());
  CHECK(result["bound"] == "memory");
  const auto& first = result["steps"][0]["kernels"][0];
  for (const char* key : {"mxu_utilisation", "fold_efficiency", "folds", "vector_share", "vmem_stall", "tiles"})
    CHECK_MESSAGE(first.contains(key), key);
}

TEST_CASE("cli: prefill, generate, attention, gemm and elementwise on TPU v5e and v6e") {
  for (const char* chip : {"tpu_v5e", "tpu_v6e"}) {
    for (const char* w : {"prefill:model=llama3_8b,batch=1,prompt=512", "generate:model=llama3_8b,batch=1,prompt=64,output=4",
                          "attention:batch=4,heads=32,kv_heads=8,head_dim=128,q_len=1,kv_len=4096",
                          "gemm:M=2048,N=2048,K=2048,dtype=bf16", "gemm:M=1024,N=1024,K=1024,dtype=int8"}) {
      auto doc = run_json(std::string("--chip ") + chip + " -w " + w);
      CHECK_MESSAGE(doc["result"]["seconds"].get<double>() >= doc["result"]["roofline_floor"].get<double>(), chip, w);
    }
  }
}
