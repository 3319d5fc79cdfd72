// XLA pass on real LLM steps: total FLOPs unchanged, min bytes not increased, fewer ops, and the
// exact Llama-3-8B decode layer derived by hand below.
#include <doctest/doctest.h>

#include "tests/unit/u6_graph_support.h"

#include <map>

#include "workloads/llm/step_lowering.h"
#include "workloads/passes/xla_fusion.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {

constexpr std::int64_t kContext = 512;

OpGraph decode_step(const std::string& model, std::int64_t batch) {
  LlmStepShape shape;
  shape.batch = batch, shape.q_len = 1, shape.kv_len = kContext + 1;
  return lower_llm_step(load_architecture(model), LlmDtypes{}, shape);
}

// Names of layer `layer`'s ops in execution order, without the "L<i>." prefix.
std::vector<std::string> layer_ops(const OpGraph& g, int layer) {
  std::string prefix = "L";  // built piecewise: GCC 12 warns falsely (-Wrestrict) on "L" + str
  prefix += std::to_string(layer);
  prefix += '.';
  std::vector<std::string> names;
  for (OpVertex v : execution_order(g))
    if (g[v].name.rfind(prefix, 0) == 0) names.push_back(g[v].name.substr(prefix.size()));
  return names;
}

}  // namespace

TEST_CASE("xla on llama3_8b decode: 12 ops per layer become 9, FLOPs kept") {
  // Before (composite lowering): attn_norm, qkv_proj, rope, kv_append, attention, o_proj,
  // attn_residual, ffn_norm, gate_up, silu_mul, down_proj, ffn_residual = 12.
  // By hand, after:
  //   attn_norm      norm; its consumer qkv_proj is a GEMM (never absorbed)         stays
  //   qkv_proj       GEMM; two consumers (rope; kv_append takes V unrotated)         stays
  //   rope           its producer qkv_proj has two consumers → not an epilogue        stays
  //   kv_append      cache write                                                      stays
  //   attention      never merged                                                     stays
  //   o_proj         GEMM; attn_residual is its only consumer → absorbed (+skip x)    o_proj
  //   attn_residual  two consumers (ffn_norm, ffn_residual) → output materialised     (in o_proj)
  //   ffn_norm       norm; consumer gate_up is a GEMM                                 stays
  //   gate_up        GEMM; silu_mul is its only consumer → absorbed                   gate_up
  //   down_proj      GEMM; ffn_residual is its only consumer → absorbed               down_proj
  // = 9 per layer. Step: embed + 32 × 12 + final_norm + lm_head = 387 → 1 + 32 × 9 + 2 = 291
  // (embed feeds attn_norm and attn_residual; final_norm's consumer is the lm_head GEMM).
  OpGraph before = decode_step("llama3_8b", 1);
  OpGraph after = xla_fuse(before);
  REQUIRE(layer_ops(before, 3).size() == 12);
  CHECK(boost::num_vertices(before) == 387);
  std::vector<std::string> expected = {"attn_norm", "qkv_proj", "rope",    "kv_append", "attention",
                                       "o_proj",    "ffn_norm", "gate_up", "down_proj"};
  CHECK(layer_ops(after, 3) == expected);
  CHECK(boost::num_vertices(after) == 291);
  CHECK(op_named(after, "L3.o_proj").fused.ops == std::vector<std::string>{"L3.attn_residual"});
  CHECK(op_named(after, "L3.gate_up").fused.ops == std::vector<std::string>{"L3.silu_mul"});
  CHECK(op_named(after, "L3.down_proj").fused.ops == std::vector<std::string>{"L3.ffn_residual"});
  CHECK(total(after, op_flops) == doctest::Approx(total(before, op_flops)).epsilon(1e-12));
  CHECK(total(after, op_min_bytes) < total(before, op_min_bytes));
}

TEST_CASE("xla on llama3_8b decode: consumers are reconnected and the order stays topological") {
  OpGraph after = xla_fuse(decode_step("llama3_8b", 1));
  for (auto [it, end] = boost::edges(after); it != end; ++it)
    CHECK(boost::source(*it, after) < boost::target(*it, after));
  // L4's residual stream now comes out of L3.down_proj (which absorbed L3.ffn_residual).
  std::map<std::string, std::vector<std::string>> inputs;
  for (OpVertex v : execution_order(after))
    for (auto [it, end] = boost::in_edges(v, after); it != end; ++it)
      inputs[after[v].name].push_back(after[boost::source(*it, after)].name);
  CHECK(inputs["L4.attn_norm"] == std::vector<std::string>{"L3.down_proj"});
  // Main input (attention) first, then the residual's skip input.
  CHECK(inputs["L4.o_proj"] == std::vector<std::string>{"L4.attention", "L3.down_proj"});
  CHECK(inputs["L4.ffn_norm"] == std::vector<std::string>{"L4.o_proj"});
  CHECK(inputs["L4.down_proj"] == std::vector<std::string>{"L4.gate_up", "L4.o_proj"});
}

TEST_CASE("xla on other models and batches: FLOPs kept, min bytes never grow, fewer ops") {
  for (const char* model : {"llama3_8b", "mixtral_8x7b", "gpt2", "mistral_7b"}) {
    for (std::int64_t batch : {1, 16}) {
      CAPTURE(model);
      CAPTURE(batch);
      OpGraph before = decode_step(model, batch);
      OpGraph after = xla_fuse(before);
      CHECK(boost::num_vertices(after) < boost::num_vertices(before));
      CHECK(total(after, op_flops) == doctest::Approx(total(before, op_flops)).epsilon(1e-12));
      CHECK(total(after, op_min_bytes) <= total(before, op_min_bytes));
    }
  }
}
