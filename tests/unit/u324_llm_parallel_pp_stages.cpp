// Pipeline stages hold contiguous layers, as even as possible with the extra layers on the first
// stages; the embedding runs on stage 0, the final norm and LM head on the last stage.
#include <doctest/doctest.h>

#include <cctype>

#include "workloads/llm/parallel_layout.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
// "L12.qkv_proj" → 12; -1 for ops outside the layers.
int layer_of(const std::string& name) {
  if (name.size() < 2 || name[0] != 'L' || !std::isdigit(static_cast<unsigned char>(name[1]))) return -1;
  return std::stoi(name.substr(1));
}
}  // namespace

TEST_CASE("llm parallel: pipeline stages get contiguous layers, the first stages the extra ones") {
  std::vector<StageLayers> three = stage_layers(32, 3);
  REQUIRE(three.size() == 3);
  CHECK(three[0].first == 0);
  CHECK(three[0].count == 11);
  CHECK(three[1].first == 11);
  CHECK(three[1].count == 11);
  CHECK(three[2].first == 22);
  CHECK(three[2].count == 10);
  std::vector<StageLayers> even = stage_layers(80, 4);
  for (std::size_t s = 0; s < 4; ++s) {
    CHECK(even[s].first == std::int64_t(20 * s));
    CHECK(even[s].count == 20);
  }
  std::vector<StageLayers> one_each = stage_layers(5, 5);
  for (std::size_t s = 0; s < 5; ++s) CHECK(one_each[s].count == 1);

  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=2,context=64,pp=3");
  CHECK(w.parallel.pp == 3);
  const OpGraph& g = w.steps[0].graph;
  int previous = 0;
  for (OpVertex v : execution_order(g)) {
    const Op& op = g[v];
    CHECK(op.stage >= previous);  // one microbatch: stages in order
    previous = op.stage;
    int layer = layer_of(op.name);
    if (layer >= 0) {
      int expected = layer < 11 ? 0 : layer < 22 ? 1 : 2;
      CHECK_MESSAGE(op.stage == expected, op.name);
    }
  }
  auto stage_of = [&](const std::string& name) {
    for (OpVertex v : execution_order(g))
      if (g[v].name == name) return g[v].stage;
    FAIL("no op " << name);
    return -1;
  };
  CHECK(stage_of("embed") == 0);
  CHECK(stage_of("final_norm") == 2);
  CHECK(stage_of("lm_head") == 2);
  CHECK(stage_of("L10.ffn_residual") == 0);
  CHECK(stage_of("L11.attn_norm") == 1);
  CHECK(stage_of("L31.ffn_residual") == 2);
  CHECK(w.stage_footprint.size() == 3);

  // tp and pp together: the logits gather is on the last stage, the embedding all_reduce on the first.
  Workload both = WorkloadCatalog::build("decode:model=llama3_8b,batch=2,context=64,pp=2,tp=2");
  for (OpVertex v : execution_order(both.steps[0].graph)) {
    const Op& op = both.steps[0].graph[v];
    if (op.name == "embed_all_reduce") CHECK(op.stage == 0);
    if (op.name == "logits_all_gather") CHECK(op.stage == 1);
    if (op.name == "L16.attn_all_reduce") CHECK(op.stage == 1);
  }
}
