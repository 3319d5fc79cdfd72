// tp=pp=ep=dp=microbatches=1 is the single-device path: decode_llama8b's graph is the one it always
// was (op count, names, FLOPs, bytes, edges), every op on stage 0, no collective, no stage footprint.
#include <doctest/doctest.h>

#include "workloads/llm/step_lowering.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm parallel: all sizes 1 give the single-device graph of decode_llama8b") {
  Workload plain = WorkloadCatalog::build("decode_llama8b");
  Workload ones = WorkloadCatalog::build("decode_llama8b:tp=1,pp=1,ep=1,dp=1,microbatches=1");
  for (const Workload* w : {&plain, &ones}) {
    REQUIRE(w->steps.size() == 1);
    const OpGraph& g = w->steps[0].graph;
    // Taken from the graph before parallel layouts existed.
    CHECK(boost::num_vertices(g) == 387);
    CHECK(boost::num_edges(g) == 514);
    double flops = 0, bytes = 0;
    for (OpVertex v : execution_order(g)) {
      flops += op_flops(g[v]);
      bytes += op_min_bytes(g[v]);
      CHECK(g[v].stage == 0);
      CHECK_FALSE(is_collective(g[v]));
    }
    CHECK(flops == 15282388992.0);
    CHECK(bytes == 15088675328.0);
    CHECK(w->parallel.single());
    CHECK(w->parallel.microbatches == 1);
    CHECK(w->stage_footprint.empty());
    CHECK(w->steps[0].tokens == 1);
  }
  const OpGraph& a = plain.steps[0].graph;
  const OpGraph& b = ones.steps[0].graph;
  auto order_a = execution_order(a), order_b = execution_order(b);
  REQUIRE(order_a.size() == order_b.size());
  for (std::size_t i = 0; i < order_a.size(); ++i) {
    CHECK(a[order_a[i]].name == b[order_b[i]].name);
    CHECK(op_flops(a[order_a[i]]) == op_flops(b[order_b[i]]));
    CHECK(op_min_bytes(a[order_a[i]]) == op_min_bytes(b[order_b[i]]));
    CHECK(boost::in_degree(order_a[i], a) == boost::in_degree(order_b[i], b));
  }
  CHECK(a[order_a.front()].name == "embed");
  CHECK(a[order_a[2]].name == "L0.qkv_proj");
  CHECK(a[order_a.back()].name == "lm_head");

  // The parallel entry point with the default layout is the single-device lowering.
  ModelArchitecture arch = load_architecture("llama3_8b");
  LlmStepShape shape{2, 1, 100};
  OpGraph direct = lower_llm_step(arch, LlmDtypes{}, shape);
  OpGraph via = lower_parallel_llm_step(arch, LlmDtypes{}, shape, Parallelism{});
  REQUIRE(boost::num_vertices(direct) == boost::num_vertices(via));
  for (OpVertex v : execution_order(direct)) {
    CHECK(direct[v].name == via[v].name);
    CHECK(op_flops(direct[v]) == op_flops(via[v]));
  }
}
