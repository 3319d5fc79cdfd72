// A decode step calls SDPA as Hugging Face does: is_causal only with several new tokens. One new
// token sees its whole cache (the same pairs either way), so on an A100 SDPA's FlashAttention-2
// takes the step (it refuses a causal mask with q_len != kv_len; the math path would run instead).
#include <doctest/doctest.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::vector<AttentionOp> attention_ops(const std::string& spec) {
  Workload w = WorkloadCatalog::build(spec);
  std::vector<AttentionOp> out;
  const OpGraph& g = w.steps.front().graph;
  for (OpVertex v : execution_order(g))
    if (const auto* a = std::get_if<AttentionOp>(&g[v].shape)) out.push_back(*a);
  return out;
}
}  // namespace

TEST_CASE("decode attention: one new token is not causal, a prefill is, and their pairs are as masked") {
  auto decode = attention_ops("decode:model=llama3_8b,batch=2,context=100,layers=2");
  REQUIRE(decode.size() == 2);
  CHECK_FALSE(decode[0].causal);
  CHECK(attention_pairs(decode[0]) == 101.0);  // the new token sees the 100 cached ones and itself
  auto prefill = attention_ops("prefill:model=llama3_8b,batch=1,prompt=64,layers=1");
  REQUIRE(prefill.size() == 1);
  CHECK(prefill[0].causal);
  CHECK(attention_pairs(prefill[0]) == 64.0 * 65.0 / 2.0);
}

TEST_CASE("decode attention: an A100 runs FlashAttention-2's split-KV decode, not the math path") {
  Config config = load_chip(chip_file("a100"), {});
  RunResult r = simulate(config, WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=1024,layers=1"));
  bool flash = false, naive = false;
  for (const auto& k : r.steps.front().records) {
    flash |= k.op_class == "attention" && k.config.find("flash2") != std::string::npos;
    naive |= k.name.find("qk_gemm") != std::string::npos;
  }
  CHECK(flash);
  CHECK_FALSE(naive);
}
