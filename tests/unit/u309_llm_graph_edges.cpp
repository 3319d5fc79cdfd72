// The op graph's edges are data dependencies: each op consumes its predecessor, residual adds
// consume both branches.
#include <algorithm>
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm lowering: edges follow the data and residual adds take both branches") {
  const OpGraph g = WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=8,layers=2,kernels=fused").steps[0].graph;
  auto inputs_of = [&](const std::string& name) {
    std::vector<std::string> in;
    for (OpVertex v : execution_order(g)) {
      if (g[v].name != name) continue;
      for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) in.push_back(g[boost::source(*e, g)].name);
    }
    std::sort(in.begin(), in.end());
    return in;
  };
  using V = std::vector<std::string>;
  CHECK(inputs_of("embed").empty());
  CHECK(inputs_of("L0.attn_norm") == V{"embed"});
  CHECK(inputs_of("L0.qkv_proj") == V{"L0.attn_norm"});
  CHECK(inputs_of("L0.rope") == V{"L0.qkv_proj"});
  CHECK(inputs_of("L0.kv_append") == V{"L0.qkv_proj", "L0.rope"});
  CHECK(inputs_of("L0.attention") == V{"L0.kv_append", "L0.rope"});
  CHECK(inputs_of("L0.attn_residual") == V{"L0.o_proj", "embed"});
  CHECK(inputs_of("L0.ffn_residual") == V{"L0.attn_residual", "L0.down_proj"});
  CHECK(inputs_of("L1.attn_norm") == V{"L0.ffn_residual"});
  CHECK(inputs_of("final_norm") == V{"L1.ffn_residual"});
  CHECK(inputs_of("lm_head") == V{"final_norm"});
}
