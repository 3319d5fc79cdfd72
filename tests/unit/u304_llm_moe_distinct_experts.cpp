// MoE: the grouped expert GEMMs cover the expected number of distinct experts, E·(1 − (1 − 1/E)^picks).
#include <cmath>
#include <doctest/doctest.h>

#include "workloads/llm/moe.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm lowering: MoE groups follow the expected distinct-expert count") {
  // 8 experts, top-2: 1 token → 8·(1 − (7/8)²) = 1.875 → 2; 8 tokens (16 picks) → 7.06 → 7.
  CHECK(expected_distinct_experts(8, 2) == std::llround(8 * (1 - std::pow(7.0 / 8, 2))));
  CHECK(expected_distinct_experts(8, 2) == 2);
  CHECK(expected_distinct_experts(8, 16) == 7);
  CHECK(expected_distinct_experts(8, 64) == 8);   // saturates at E
  CHECK(expected_distinct_experts(64, 1) == 1);   // never below 1

  Workload w = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=8,context=64");
  const OpGraph& g = w.steps[0].graph;
  int routers = 0;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    if (op.name == "L0.router") {
      ++routers;
      CHECK(std::get<GemmOp>(op.shape).n == 8);
    }
    if (op.name == "L0.expert_gate_up") {
      const auto& gemm = std::get<GemmOp>(op.shape);
      CHECK(gemm.groups == 7);
      CHECK(gemm.m == (8 * 2 + 7 - 1) / 7);  // 16 routed rows over 7 experts, rounded up
      CHECK(gemm.n == 2 * 14336);
    }
    if (op.name == "L0.expert_down") CHECK(std::get<GemmOp>(op.shape).groups == 7);
  }
  CHECK(routers == 1);
  // experts=16 override: 16 routed picks over 16 experts → 16·(1 − (15/16)^16) = 10.3 → 10.
  Workload w16 = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=8,context=64,experts=16");
  const OpGraph& g16 = w16.steps[0].graph;
  for (OpVertex v : execution_order(g16))
    if (g16[v].name == "L0.expert_down") CHECK(std::get<GemmOp>(g16[v].shape).groups == 10);
}
