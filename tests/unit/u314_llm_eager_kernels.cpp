// The eager framework pass (the GPU's default) lowers a decode layer to the kernels PyTorch eager launches, as the
// H100 profile in data/measurements/h100_decode_kernels.json lists them: RoPE as neg, cat, ·cos,
// ·sin, + for each of q and k; the cache append as two copies; silu and mul as two kernels.
#include <doctest/doctest.h>

#include "sim/error.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm lowering: eager decode layer has the PyTorch eager kernels in order") {
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=512");
  const OpGraph g = FrameworkPasses::get("eager").apply(w.steps[0].graph).value();
  std::vector<std::string> layer0;
  for (OpVertex v : execution_order(g))
    if (g[v].name.rfind("L0.", 0) == 0) layer0.push_back(g[v].name.substr(3));
  std::vector<std::string> expected = {
      "attn_norm",        "qkv_proj",        "rope.q.neg",   "rope.q.cat",   "rope.q.mul_cos", "rope.q.mul_sin",
      "rope.q.add",       "rope.k.neg",      "rope.k.cat",   "rope.k.mul_cos", "rope.k.mul_sin", "rope.k.add",
      "kv_append.k",      "kv_append.v",     "attention",    "o_proj",       "attn_residual",  "ffn_norm",
      "gate_up",          "silu",            "silu_mul",     "down_proj",    "ffn_residual"};
  CHECK(layer0 == expected);
  // embed + 32 layers × 23 ops + final_norm + lm_head
  CHECK(boost::num_vertices(g) == 1 + 32 * 23 + 2);
}

TEST_CASE("llm lowering: eager and fused steps move the same weights and do the same GEMM FLOPs") {
  auto gemm_flops = [](const std::string& spec) {
    Workload w = WorkloadCatalog::build(spec);
    const OpGraph& g = w.steps[0].graph;
    double flops = 0;
    for (OpVertex v : execution_order(g))
      if (g[v].op_class == "gemm") flops += op_flops(g[v]);
    return flops;
  };
  CHECK(gemm_flops("decode_llama8b") == gemm_flops("decode_llama8b:kernels=fused"));
}

TEST_CASE("llm spec: kernels must name a framework pass") {
  CHECK_THROWS_WITH_AS(WorkloadCatalog::build("decode_llama8b:kernels=fast"),
                       doctest::Contains("kernels: 'fast' is not one of eager, fused"), UserError);
}
