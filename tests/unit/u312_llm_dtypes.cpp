// Weights, activations and KV cache each keep their own dtype in the lowered ops.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm dtypes: weights and activations and KV cache keep separate dtypes") {
  const OpGraph g = WorkloadCatalog::build("decode:model=llama3_8b,batch=2,context=10,weights=int4,act=bf16,kv=fp8")
                        .steps[0].graph;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    if (op.name == "L0.gate_up") {
      const auto& gemm = std::get<GemmOp>(op.shape);
      CHECK(gemm.a == DType::bf16);
      CHECK(gemm.b == DType::int4);
      CHECK(gemm.out == DType::bf16);
    }
    if (op.name == "L0.attention") {
      CHECK(std::get<AttentionOp>(op.shape).dtype == DType::bf16);
      CHECK(std::get<AttentionOp>(op.shape).kv_dtype == DType::fp8);
    }
    if (op.name == "L0.kv_append") {
      const auto& s = std::get<StreamOp>(op.shape);
      double new_kv = 2 * 2 * 8 * 128;      // 2 tokens · (K, V) · 8 kv heads · 128
      CHECK(s.bytes_read == new_kv * 2);     // bf16 from the projection
      CHECK(s.bytes_written == new_kv * 1);  // fp8 into the cache
    }
  }
}
