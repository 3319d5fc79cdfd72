// generate: a prefill step, then `output` decode steps whose context grows by one each step, each
// lowered only when a runner reaches it.
#include <doctest/doctest.h>

#include <memory>
#include <optional>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm generate: output tokens, a prefill then output - 1 decode steps with growing context") {
  Workload w = WorkloadCatalog::build("generate:model=gpt2,batch=2,prompt=16,output=5");
  REQUIRE(w.steps.size() == 5);  // vLLM's max_tokens: the prefill gives the first token
  CHECK(w.steps[0].label == "prefill");
  CHECK(w.steps[0].phase == "prefill");
  std::int64_t tokens = 0;
  for (std::size_t j = 0; j < w.steps.size(); ++j) {
    tokens += w.steps[j].tokens;
    CHECK(w.steps[j].tokens == 2);
    if (j == 0) continue;
    CHECK(w.steps[j].phase == "decode");
    CHECK(w.steps[j].label == "decode@" + std::to_string(16 + j));
    // Decode steps are lowered just in time: no graph until a runner asks for it.
    CHECK(boost::num_vertices(w.steps[j].graph) == 0);
    REQUIRE(w.steps[j].lower);
    std::unique_ptr<OpGraph> holder;
    const OpGraph& g = step_graph(w.steps[j], holder);
    CHECK(boost::num_vertices(g) > 0);
    for (OpVertex v : execution_order(g)) {
      if (g[v].name != "L0.attention") continue;
      const auto& a = std::get<AttentionOp>(g[v].shape);
      CHECK(a.q_len == 1);
      CHECK(a.kv_len == std::int64_t(16 + j));  // prompt + (j − 1) cached + the new token
    }
  }
  CHECK(tokens == 2 * 5);
  CHECK(w.llm->context == 16 + 5);
}
