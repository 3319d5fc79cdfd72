// llama3_8b decode lowers to 12 ops per layer, in the order, plus embed, final norm, LM head.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm lowering: llama3_8b decode has 12 ops per layer in order") {
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=512,kernels=fused");
  REQUIRE(w.steps.size() == 1);
  const OpGraph& g = w.steps[0].graph;
  std::vector<std::string> layer3;
  for (OpVertex v : execution_order(g))
    if (g[v].name.rfind("L3.", 0) == 0) layer3.push_back(g[v].name.substr(3));
  std::vector<std::string> expected = {"attn_norm", "qkv_proj", "rope",          "kv_append", "attention",
                                       "o_proj",    "attn_residual", "ffn_norm", "gate_up",   "silu_mul",
                                       "down_proj", "ffn_residual"};
  CHECK(layer3 == expected);
  // embed + 32 layers × 12 ops + final_norm + lm_head
  CHECK(boost::num_vertices(g) == 1 + 32 * 12 + 2);
  CHECK(g[execution_order(g).back()].name == "lm_head");
}
