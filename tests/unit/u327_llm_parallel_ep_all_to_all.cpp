// Expert parallel: each ep rank holds experts/ep experts and its share of the sequences; per MoE
// layer an all_to_all dispatch before the expert GEMMs and a combine after, each of the rank's
// tokens·top_k·hidden·act bytes; the expert GEMMs on those rows over the local experts.
#include <doctest/doctest.h>

#include "tests/fixtures/workload_support.h"

#include "workloads/llm/moe.h"
#include "workloads/workload.h"

using namespace hwsim;
using hwsim::test::op_named;

namespace {
std::vector<std::string> inputs_of(const OpGraph& g, const std::string& name) {
  std::vector<std::string> out;
  for (OpVertex v : execution_order(g))
    if (g[v].name == name)
      for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) out.push_back(g[boost::source(*e, g)].name);
  return out;
}
}  // namespace

TEST_CASE("llm parallel: ep adds a dispatch and a combine all_to_all per MoE layer") {
  Workload w = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=8,context=64,ep=4");
  const OpGraph& g = w.steps[0].graph;
  // 8 sequences over 4 ep ranks: 2 tokens per rank, 2·top_k = 4 routed rows.
  const double bytes = 2.0 * 2 * 4096 * 2;
  int all_to_all = 0, others = 0;
  for (OpVertex v : execution_order(g)) {
    if (!is_collective(g[v])) continue;
    const auto& c = std::get<CollectiveOp>(g[v].shape);
    if (c.kind != CollectiveKind::all_to_all) {
      ++others;
      continue;
    }
    ++all_to_all;
    CHECK(c.axis == ParallelAxis::ep);
    CHECK(c.ranks == 4);
    CHECK(c.bytes == bytes);
    CHECK((g[v].name.ends_with(".ep_dispatch") || g[v].name.ends_with(".ep_combine")));
  }
  CHECK(all_to_all == 2 * 32);
  CHECK(others == 0);

  // Attention and the rest on the rank's sequences (ep ranks are data-parallel outside the experts).
  CHECK(std::get<AttentionOp>(op_named(g, "L7.attention").shape).batch == 2);
  CHECK(std::get<AttentionOp>(op_named(g, "L7.attention").shape).heads == 32);
  CHECK(std::get<GemmOp>(op_named(g, "L7.qkv_proj").shape).m == 2);
  CHECK(std::get<GemmOp>(op_named(g, "L7.router").shape).n == 8);
  CHECK(std::get<GemmOp>(op_named(g, "lm_head").shape).m == 2);

  // Expert GEMMs: the 4 rows routed to this rank over its 2 local experts (evenly balanced).
  const auto& up = std::get<GemmOp>(op_named(g, "L7.expert_gate_up").shape);
  std::int64_t groups = expected_distinct_experts(2, 4);
  CHECK(groups == 2);
  CHECK(up.groups == groups);
  CHECK(up.m == 2);
  CHECK(up.n == 2 * 14336);
  CHECK(std::get<GemmOp>(op_named(g, "L7.expert_down").shape).groups == groups);

  // Order: top-k → dispatch → expert GEMMs → combine → residual.
  CHECK(inputs_of(g, "L7.ep_dispatch") == std::vector<std::string>{"L7.ffn_norm", "L7.topk"});
  CHECK(inputs_of(g, "L7.expert_gate_up") == std::vector<std::string>{"L7.ep_dispatch"});
  CHECK(inputs_of(g, "L7.ep_combine") == std::vector<std::string>{"L7.expert_down"});
  CHECK(inputs_of(g, "L7.ffn_residual") == std::vector<std::string>{"L7.attn_residual", "L7.ep_combine", "L7.topk"});

  // Prefill: tokens = sequences · prompt.
  Workload p = WorkloadCatalog::build("prefill:model=mixtral_8x7b,batch=4,prompt=16,ep=2,layers=2");
  CHECK(std::get<CollectiveOp>(op_named(p.steps[0].graph, "L1.ep_combine").shape).bytes == 2.0 * 16 * 2 * 4096 * 2);
}
