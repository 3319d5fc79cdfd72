// Per-device footprint under tensor parallelism: every weight matrix (layers, embedding, LM head)
// is split by tp, the norm γ replicated; the KV cache holds kv_heads/tp heads.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

namespace {
void check(const std::string& base, std::int64_t tp, double replicated) {
  Workload one = WorkloadCatalog::build(base);
  Workload w = WorkloadCatalog::build(base + ",tp=" + std::to_string(tp));
  REQUIRE(w.stage_footprint.size() == 1);
  const DeviceFootprint& f = w.stage_footprint[0];
  CHECK_MESSAGE(f.weights == (one.llm->weight_bytes - replicated) / double(tp) + replicated, base << " tp=" << tp);
  CHECK(f.kv_cache * double(tp) == one.llm->kv_bytes);
  CHECK(f.activations > 0);
  CHECK(f.activations < one.llm->activation_bytes);
  CHECK(f.gradients == 0);
  CHECK(f.optimizer == 0);
  // LlmFacts keep describing the whole run.
  CHECK(w.llm->weight_bytes == one.llm->weight_bytes);
  CHECK(w.llm->kv_bytes == one.llm->kv_bytes);
}
}  // namespace

TEST_CASE("llm parallel: weights and KV cache per device at tp=2 and tp=8") {
  // llama3_8b: 2 RMSNorm γ per layer and the final one, 4096 wide, bf16.
  const double norms_8b = (2 * 32 + 1) * 4096.0 * 2;
  for (std::int64_t tp : {2, 8}) {
    check("decode:model=llama3_8b,batch=8,context=1023", tp, norms_8b);
    check("decode:model=llama3_8b,batch=8,context=1023,weights=fp8,kv=fp8", tp, norms_8b);
  }
  check("decode:model=llama3_70b,batch=2,context=511", 8, (2 * 80 + 1) * 8192.0 * 2);
  // Numbers: llama3_8b at tp=2, batch 8, 1024 positions: 8.03 GB of weights, 67 MB of KV cache.
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=8,context=1023,tp=2");
  CHECK(w.stage_footprint[0].weights == doctest::Approx(8.03e9).epsilon(0.001));
  CHECK(w.stage_footprint[0].kv_cache == 8.0 * 1024 * 32 * 2 * 4 * 128 * 2);
}
