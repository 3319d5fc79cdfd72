// Tensor parallel (Megatron): qkv and gate_up column-split, o_proj and down_proj row-split,
// attention on heads/tp and kv_heads/tp, norms and residuals on the full hidden size.
#include <doctest/doctest.h>

#include "tests/fixtures/workload_support.h"

#include "workloads/workload.h"

using namespace hwsim;
using hwsim::test::op_named;

TEST_CASE("llm parallel: tp splits each layer's GEMMs and heads per rank") {
  Workload one = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=100");
  for (std::int64_t tp : {2, 8}) {
    Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=100,tp=" + std::to_string(tp));
    const OpGraph& g = w.steps[0].graph;
    CHECK(w.parallel.tp == tp);
    const auto& qkv = std::get<GemmOp>(op_named(g, "L5.qkv_proj").shape);
    CHECK(qkv.m == 4);
    CHECK(qkv.n == (32 + 2 * 8) * 128 / tp);
    CHECK(qkv.k == 4096);
    const auto& o = std::get<GemmOp>(op_named(g, "L5.o_proj").shape);
    CHECK(o.n == 4096);
    CHECK(o.k == 32 * 128 / tp);
    const auto& up = std::get<GemmOp>(op_named(g, "L5.gate_up").shape);
    CHECK(up.n == 2 * 14336 / tp);
    CHECK(up.k == 4096);
    const auto& down = std::get<GemmOp>(op_named(g, "L5.down_proj").shape);
    CHECK(down.n == 4096);
    CHECK(down.k == 14336 / tp);
    const auto& at = std::get<AttentionOp>(op_named(g, "L5.attention").shape);
    CHECK(at.heads == 32 / tp);
    CHECK(at.kv_heads == 8 / tp);
    CHECK(at.batch == 4);
    CHECK(at.kv_len == 101);
    // RoPE and the KV append on the rank's heads: 1/tp of the single-device bytes.
    const Op& rope1 = op_named(one.steps[0].graph, "L5.kv_append");
    CHECK(op_min_bytes(op_named(g, "L5.kv_append")) * double(tp) == op_min_bytes(rope1));
    // Replicated: norms and residuals on the full hidden size.
    for (const char* name : {"L5.attn_norm", "L5.ffn_norm", "L5.attn_residual", "L5.ffn_residual", "final_norm", "embed"})
      CHECK(op_min_bytes(op_named(g, name)) == op_min_bytes(op_named(one.steps[0].graph, name)));
    const auto& head = std::get<GemmOp>(op_named(g, "lm_head").shape);
    CHECK(head.m == 4);
    CHECK(head.n == 128256 / tp);
    // Every op of one stage: stage 0.
    for (OpVertex v : execution_order(g)) CHECK(g[v].stage == 0);
  }
}
