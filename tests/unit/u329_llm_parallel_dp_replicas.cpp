// Data parallel (inference): replicas; the graph is one replica's (batch/dp sequences, no
// communication); the step's tokens and LlmFacts stay the whole run's.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm parallel: dp replicas each run batch/dp sequences without communication") {
  Workload one = WorkloadCatalog::build("decode:model=llama3_8b,batch=8,context=256");
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=8,context=256,dp=4");
  const OpGraph& g = w.steps[0].graph;
  CHECK(w.parallel.dp == 4);
  CHECK(w.parallel.ranks() == 4);
  CHECK(boost::num_vertices(g) == boost::num_vertices(one.steps[0].graph));
  for (OpVertex v : execution_order(g)) {
    CHECK_FALSE(is_collective(g[v]));
    CHECK(g[v].stage == 0);
    if (g[v].name == "L0.qkv_proj") CHECK(std::get<GemmOp>(g[v].shape).m == 2);
    if (g[v].name == "L0.attention") CHECK(std::get<AttentionOp>(g[v].shape).batch == 2);
  }
  // Whole-run facts for the metrics: every replica's tokens.
  CHECK(w.steps[0].tokens == 8);
  REQUIRE(w.llm);
  CHECK(w.llm->batch == 8);
  CHECK(w.llm->kv_bytes == one.llm->kv_bytes);
  CHECK(w.llm->weight_bytes == one.llm->weight_bytes);
  // One stage; its device holds all the weights and a quarter of the KV cache.
  REQUIRE(w.stage_footprint.size() == 1);
  CHECK(w.stage_footprint[0].weights == one.llm->weight_bytes);
  CHECK(w.stage_footprint[0].kv_cache * 4 == one.llm->kv_bytes);
}
