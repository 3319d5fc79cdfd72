// Attention's backward is FlashAttention-2's: 2.5× the forward FLOPs (5 matmuls per visible
// (query, key) pair against 2), as one AttentionOp of equal work.
#include <doctest/doctest.h>

#include "workloads/llm/train_backward.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("train: attention backward is 2.5x the forward FLOPs, causal mask and window kept") {
  Workload w = WorkloadCatalog::build("train:model=mistral_7b,layers=1,batch=2,seq=512,window=256");
  const OpGraph& g = w.steps.at(0).graph;
  const Op* fwd = nullptr;
  const Op* bwd = nullptr;
  for (OpVertex v : execution_order(g)) {
    if (g[v].name == "L0.attention") fwd = &g[v];
    if (g[v].name == "bwd.L0.attention") bwd = &g[v];
  }
  REQUIRE(fwd);
  REQUIRE(bwd);
  CHECK(op_flops(*bwd) == doctest::Approx(2.5 * op_flops(*fwd)).epsilon(1e-12));
  const auto& b = std::get<AttentionOp>(bwd->shape);
  CHECK(b.causal);
  CHECK(b.window == 256);
  CHECK(b.q_len == 512);
  CHECK(b.kv_len == 512);
  CHECK(bwd->op_class == "attention");
}

TEST_CASE("train: the equal-work attention shape for odd head_dim, odd heads and batch") {
  AttentionOp f;
  f.batch = 3, f.heads = 6, f.kv_heads = 2, f.head_dim = 65, f.q_len = 100, f.kv_len = 100;
  auto flops = [](const AttentionOp& a) { return 4.0 * a.batch * a.heads * a.head_dim * attention_pairs(a); };
  CHECK(flops(attention_backward_shape(f)) == doctest::Approx(kAttentionBackwardFlopFactor * flops(f)));  // heads halved
  f.heads = 5, f.kv_heads = 1, f.batch = 4;
  CHECK(flops(attention_backward_shape(f)) == doctest::Approx(kAttentionBackwardFlopFactor * flops(f)));  // batch halved
  f.head_dim = 64;
  AttentionOp b = attention_backward_shape(f);
  CHECK(b.head_dim == 32);
  CHECK(b.heads == 25);
  CHECK(b.kv_heads == 5);
  CHECK(flops(b) == doctest::Approx(kAttentionBackwardFlopFactor * flops(f)));
}
