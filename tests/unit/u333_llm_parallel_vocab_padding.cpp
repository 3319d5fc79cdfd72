// The vocabulary is split over tp ranks for the embedding and the LM head; one tp does not divide
// is padded to the next multiple of tp (only when tp > 1), and the logits gather carries it.
#include <doctest/doctest.h>

#include "tests/fixtures/workload_support.h"

#include "workloads/llm/parallel_layout.h"
#include "workloads/workload.h"

using namespace hwsim;
using hwsim::test::op_named;

TEST_CASE("llm parallel: the vocabulary is padded to a multiple of tp") {
  CHECK(padded_vocab(50257, 1) == 50257);
  CHECK(padded_vocab(50257, 2) == 50258);
  CHECK(padded_vocab(50257, 3) == 50259);
  CHECK(padded_vocab(128256, 8) == 128256);
  CHECK(padded_vocab(32000, 8) == 32000);

  Workload one = WorkloadCatalog::build("decode:model=gpt2,batch=2,context=10");
  CHECK(std::get<GemmOp>(op_named(one.steps[0].graph, "lm_head").shape).n == 50257);
  for (std::int64_t tp : {2, 3}) {
    Workload w = WorkloadCatalog::build("decode:model=gpt2,batch=2,context=10,tp=" + std::to_string(tp));
    const OpGraph& g = w.steps[0].graph;
    std::int64_t padded = padded_vocab(50257, tp);
    CHECK(std::get<GemmOp>(op_named(g, "lm_head").shape).n == padded / tp);
    CHECK(std::get<CollectiveOp>(op_named(g, "logits_all_gather").shape).bytes == 2.0 * double(padded) * 2);
    // The embedding shard and the learned positions (replicated) on the first stage; tied head: no
    // extra copy on one stage. Norms: 2 layernorms (γ, β) per layer and the final one.
    const double h = 768, a = 2;
    const double norms = (2 * 12 + 1) * 2 * h * a;
    const double per_layer_linear = (3 * 768.0 * 768 + 768.0 * 768 + 2 * 768.0 * 3072) * a;
    const double expected = 12 * per_layer_linear / double(tp) + norms + double(padded / tp) * h * a + 1024 * h * a;
    CHECK(w.stage_footprint[0].weights == expected);
  }
  CHECK(std::get<GemmOp>(op_named(WorkloadCatalog::build("decode_llama8b:tp=8").steps[0].graph, "lm_head").shape).n ==
        16032);
}
