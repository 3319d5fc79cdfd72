// The training step's forward reuses the inference forward with the KV-cache append dropped and
// the LM head over every position; micro-batches appear explicitly; every op is stage 0.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("train graph: no kv_append, LM head and loss over all tokens, micro-batches explicit") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=2,batch=4,seq=128,microbatches=2");
  REQUIRE(w.steps.size() == 1);
  CHECK(w.steps[0].label == "train");
  CHECK(w.steps[0].phase == "train");
  const OpGraph& g = w.steps[0].graph;
  int heads = 0, losses = 0;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    CHECK(op.name.find("kv_append") == std::string::npos);
    CHECK(op.stage == 0);
    if (op.name == "mb0.lm_head" || op.name == "mb1.lm_head") {
      ++heads;
      CHECK(std::get<GemmOp>(op.shape).m == 2 * 128);  // micro-batch 2 × 128 positions
      CHECK(std::get<GemmOp>(op.shape).n == 128256);
    }
    if (op.name == "mb0.loss" || op.name == "mb1.loss") ++losses;
    // Every op has its inputs earlier (insertion order is topological).
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) CHECK(boost::source(*e, g) < v);
  }
  CHECK(heads == 2);
  CHECK(losses == 2);
}

TEST_CASE("train graph: attention reads K and V straight from the projection and RoPE") {
  Workload w = WorkloadCatalog::build("train:model=llama3_8b,layers=1,batch=1,seq=64");
  const OpGraph& g = w.steps[0].graph;
  for (OpVertex v : execution_order(g)) {
    if (g[v].name != "L0.attention") continue;
    std::vector<std::string> inputs;
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) inputs.push_back(g[boost::source(*e, g)].name);
    CHECK(inputs == std::vector<std::string>{"L0.rope", "L0.qkv_proj"});
  }
}
