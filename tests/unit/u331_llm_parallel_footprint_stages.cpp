// Per-stage footprint under pipeline and expert parallelism: each stage its own layers (the
// embedding on the first, final norm and LM head on the last), KV cache of its layers; ep ranks
// hold experts/ep experts and batch/ep sequences; the last stage also holds the logits.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm parallel: per-stage weights, KV cache and activations with pp and ep") {
  const double h = 4096, a = 2, vocab = 128256;
  Workload one = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=1023");
  Workload pp2 = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=1023,pp=2");
  REQUIRE(pp2.stage_footprint.size() == 2);
  const DeviceFootprint& s0 = pp2.stage_footprint[0];
  const DeviceFootprint& s1 = pp2.stage_footprint[1];
  CHECK(s0.weights + s1.weights == one.llm->weight_bytes);
  // Stage 0: embedding + 16 layers; stage 1: 16 layers + final norm + LM head (untied, bf16).
  CHECK(s0.weights - vocab * h * a == s1.weights - h * a - vocab * h * a);
  CHECK(s0.kv_cache * 2 == one.llm->kv_bytes);
  CHECK(s1.kv_cache * 2 == one.llm->kv_bytes);
  // The last stage also holds each sequence's last hidden state and its logits.
  CHECK(s1.activations - s0.activations == 4 * (h + vocab) * a);

  // Uneven: 32 layers on 3 stages = 11, 11, 10.
  Workload pp3 = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=1023,pp=3");
  CHECK(pp3.stage_footprint[0].kv_cache * 32 == one.llm->kv_bytes * 11);
  CHECK(pp3.stage_footprint[2].kv_cache * 32 == one.llm->kv_bytes * 10);

  // Tied embeddings (gpt2): the last stage keeps its own copy of the embedding for the LM head.
  Workload g1 = WorkloadCatalog::build("decode:model=gpt2,batch=2,context=100");
  Workload g2 = WorkloadCatalog::build("decode:model=gpt2,batch=2,context=100,pp=2");
  CHECK(g2.stage_footprint[0].weights + g2.stage_footprint[1].weights == g1.llm->weight_bytes + 50257.0 * 768 * 2);

  // Expert parallel (mixtral, ep=2): half the experts and half the sequences on each device.
  Workload m1 = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=4,context=511");
  Workload m2 = WorkloadCatalog::build("decode:model=mixtral_8x7b,batch=4,context=511,ep=2");
  REQUIRE(m2.stage_footprint.size() == 1);
  const double half_experts = 32 * 4 * 3 * h * 14336 * a;
  CHECK(m2.stage_footprint[0].weights == m1.llm->weight_bytes - half_experts);
  CHECK(m2.stage_footprint[0].kv_cache * 2 == m1.llm->kv_bytes);

  // Microbatches: the KV cache of every microbatch stays, activations are one microbatch's.
  Workload mb = WorkloadCatalog::build("decode:model=llama3_8b,batch=4,context=1023,pp=2,microbatches=4");
  CHECK(mb.stage_footprint[0].kv_cache == s0.kv_cache);
  CHECK(mb.stage_footprint[0].activations * 4 == s0.activations);
}
