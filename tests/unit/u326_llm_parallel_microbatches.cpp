// Microbatches: each is its own copy of the forward pass ("mb<k>." names, batch/microbatches
// sequences), built one after another, so each stage's ops in execution order are the GPipe
// schedule; pp-1 send_recvs per microbatch; every step of a generate run is expanded.
#include <doctest/doctest.h>

#include <memory>
#include <optional>

#include <algorithm>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm parallel: microbatches expand into prefixed copies in GPipe order") {
  Workload one = WorkloadCatalog::build("decode:model=llama3_8b,batch=8,context=64,pp=2,layers=4");
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=8,context=64,pp=2,layers=4,microbatches=4");
  const OpGraph& g1 = one.steps[0].graph;
  const OpGraph& g = w.steps[0].graph;
  CHECK(boost::num_vertices(g) == 4 * boost::num_vertices(g1));
  CHECK(boost::num_edges(g) == 4 * boost::num_edges(g1));
  CHECK(w.steps[0].tokens == 8);  // the whole batch's tokens, every microbatch

  auto order = execution_order(g);
  auto order1 = execution_order(g1);
  int sends = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Op& op = g[order[i]];
    std::size_t mb = i / order1.size();
    const Op& base = g1[order1[i % order1.size()]];
    CHECK(op.name == "mb" + std::to_string(mb) + "." + base.name);  // microbatch 0 entirely, then 1, ...
    CHECK(op.stage == base.stage);
    if (is_collective(op) && std::get<CollectiveOp>(op.shape).kind == CollectiveKind::send_recv) {
      ++sends;
      CHECK(std::get<CollectiveOp>(op.shape).bytes == 2.0 * 4096 * 2);
    }
    if (base.name == "L0.qkv_proj") CHECK(std::get<GemmOp>(op.shape).m == 2);
    if (base.name == "lm_head") CHECK(std::get<GemmOp>(op.shape).m == 2);
    if (base.name == "L3.attention") CHECK(std::get<AttentionOp>(op.shape).batch == 2);
    // No edge between microbatches.
    for (auto [e, end] = boost::in_edges(order[i], g); e != end; ++e)
      CHECK(g[boost::source(*e, g)].name.rfind("mb" + std::to_string(mb) + ".", 0) == 0);
  }
  CHECK(sends == 4 * (2 - 1));

  // Stage 1's ops filtered from execution order: mb0's, then mb1's, ... (GPipe).
  std::vector<int> stage1_microbatch;
  for (OpVertex v : order)
    if (g[v].stage == 1) stage1_microbatch.push_back(g[v].name[2] - '0');
  CHECK(std::is_sorted(stage1_microbatch.begin(), stage1_microbatch.end()));
  CHECK(stage1_microbatch.front() == 0);
  CHECK(stage1_microbatch.back() == 3);
}

TEST_CASE("llm parallel: every step of generate is expanded into microbatches") {
  Workload w = WorkloadCatalog::build("generate:model=llama3_8b,batch=4,prompt=16,output=3,pp=2,microbatches=2,layers=2");
  REQUIRE(w.steps.size() == 3);
  for (const auto& step : w.steps) {
    CHECK(step.tokens == 4);
    int heads = 0;
    std::unique_ptr<OpGraph> holder;  // decode steps are lowered just in time
    const OpGraph& g = step_graph(step, holder);
    for (OpVertex v : execution_order(g))
      if (g[v].name.ends_with("lm_head")) {
        ++heads;
        CHECK(std::get<GemmOp>(g[v].shape).m == 2);
        CHECK(g[v].stage == 1);
      }
    CHECK(heads == 2);
  }
  CHECK(w.llm->batch == 4);
}
