// MoE with tensor parallelism: every expert's GEMMs are split like the dense MLP (gate_up by
// columns, down by rows), followed by an all_reduce of the routed rows; two all_reduces per layer.
#include <doctest/doctest.h>

#include "tests/fixtures/workload_support.h"

#include "workloads/workload.h"

using namespace hwsim;
using hwsim::test::op_named;

TEST_CASE("llm parallel: MoE experts split by tp with an all_reduce after the down projection") {
  Workload one = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=4,context=64,layers=2");
  Workload w = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=4,context=64,layers=2,tp=2");
  const OpGraph& g = w.steps[0].graph;
  const auto& up1 = std::get<GemmOp>(op_named(one.steps[0].graph, "L1.expert_gate_up").shape);
  const auto& up = std::get<GemmOp>(op_named(g, "L1.expert_gate_up").shape);
  CHECK(up.n == 14336);  // 2·14336 / 2
  CHECK(up.k == 4096);
  CHECK(up.groups == up1.groups);
  CHECK(up.m == up1.m);
  const auto& down = std::get<GemmOp>(op_named(g, "L1.expert_down").shape);
  CHECK(down.n == 4096);
  CHECK(down.k == 7168);
  CHECK(std::get<GemmOp>(op_named(g, "L1.router").shape).n == 8);  // replicated

  int reduces = 0;
  for (OpVertex v : execution_order(g))
    if (is_collective(g[v])) {
      const auto& c = std::get<CollectiveOp>(g[v].shape);
      if (c.kind == CollectiveKind::all_reduce) ++reduces;
    }
  CHECK(reduces == 2 * 2 + 1);  // attention and experts per layer, and the embedding
  const auto& ffn = std::get<CollectiveOp>(op_named(g, "L1.ffn_all_reduce").shape);
  CHECK(ffn.bytes == 4.0 * 2 * 4096 * 2);  // tokens · top_k · hidden · bf16
  CHECK(ffn.axis == ParallelAxis::tp);

  // ep and tp together: dispatch, experts, tp all_reduce, combine.
  Workload both = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=4,context=64,layers=1,tp=2,ep=2");
  std::vector<std::string> names;
  for (OpVertex v : execution_order(both.steps[0].graph))
    if (both.steps[0].graph[v].name.rfind("L0.", 0) == 0) names.push_back(both.steps[0].graph[v].name.substr(3));
  std::vector<std::string> tail(names.end() - 7, names.end());
  CHECK(tail == std::vector<std::string>{"ep_dispatch", "expert_gate_up", "silu_mul", "expert_down", "ffn_all_reduce",
                                         "ep_combine", "ffn_residual"});
}
