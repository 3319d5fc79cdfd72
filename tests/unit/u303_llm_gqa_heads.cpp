// Grouped-query attention: the attention op and the fused QKV width follow heads and kv_heads.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
const Op& find(const OpGraph& g, const std::string& name) {
  for (OpVertex v : execution_order(g))
    if (g[v].name == name) return g[v];
  FAIL("no op " << name);
  throw;
}
}  // namespace

TEST_CASE("llm lowering: GQA head counts reach the attention op and the QKV projection") {
  Workload w3 = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=100");
  const OpGraph& l3 = w3.steps[0].graph;
  auto a = std::get<AttentionOp>(find(l3, "L0.attention").shape);
  CHECK(a.heads == 32);
  CHECK(a.kv_heads == 8);
  CHECK(a.batch == 4);
  CHECK(a.q_len == 1);
  CHECK(a.kv_len == 101);
  CHECK(std::get<GemmOp>(find(l3, "L0.qkv_proj").shape).n == (32 + 2 * 8) * 128);

  Workload w2 = WorkloadCatalog::build("decode:model=llama2_7b,batch=1,context=100");
  const OpGraph& l2 = w2.steps[0].graph;
  CHECK(std::get<AttentionOp>(find(l2, "L5.attention").shape).kv_heads == 32);
  CHECK(std::get<GemmOp>(find(l2, "L5.qkv_proj").shape).n == 3 * 4096);

  Workload wm = WorkloadCatalog::build("prefill:model=mistral_7b,batch=1,prompt=8192");
  const OpGraph& mi = wm.steps[0].graph;
  auto w = std::get<AttentionOp>(find(mi, "L0.attention").shape);
  CHECK(w.window == 4096);
  CHECK(w.causal);
  CHECK(w.q_len == 8192);
  CHECK(w.kv_len == 8192);
}
