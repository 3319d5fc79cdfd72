// The memory-efficient attention kernel has two efficiencies: CUTLASS FMHA's fp16/bf16 kernel and
// its fp32 (3xTF32) instantiation are different kernels; each key moves only its own dtype.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
double seconds(const std::string& dtype, const std::string& extra) {
  CliRun r = run_hwsim("--chip h100 -w 'attention:batch=1,heads=32,kv_heads=32,head_dim=128,q_len=4096,kv_len=4096,"
                       "causal=false,dtype=" + dtype + ",impl=mem_efficient' --json - " + extra);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["result"]["seconds"].get<double>();
}
}  // namespace

TEST_CASE("mem_efficient attention: the fp32 efficiency moves fp32 only, the 16-bit one bf16 only") {
  // A 4096-token prefill is compute-bound: halving the efficiency nearly doubles the time.
  double fp32 = seconds("fp32", ""), fp32_half = seconds("fp32", "--set gpu.attention.mem_efficient_fp32_efficiency=0.225");
  CHECK(fp32_half / fp32 > 1.8);
  CHECK(seconds("bf16", "--set gpu.attention.mem_efficient_fp32_efficiency=0.225") == seconds("bf16", ""));
  CHECK(seconds("fp32", "--set gpu.attention.mem_efficient_efficiency=0.14") == fp32);
}
