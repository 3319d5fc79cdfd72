// Models added for issue 9: Llama 3.1 (128K), DeepSeek-V3 (multi-head latent attention: a 576-value
// latent per token per layer in the cache), and a context beyond a model's maximum as a warning.
#include <doctest/doctest.h>

#include "sim/error.h"
#include "tests/fixtures/test_support.h"
#include "workloads/llm/architecture.h"
#include "workloads/workload.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("llm models: Llama 3.1 runs 32K and 128K contexts without a warning") {
  Workload w = WorkloadCatalog::build("decode:model=llama3_1_8b,context=32768");
  CHECK(w.warnings.empty());
  REQUIRE(w.llm.has_value());
  CHECK(w.llm->max_context == 131072);
  // 32 layers · 2 · 8 KV heads · 128 · 2 B = 128 KiB per token.
  CHECK(w.llm->kv_bytes_per_token == doctest::Approx(32.0 * 2 * 8 * 128 * 2));
}

TEST_CASE("llm models: beyond max_context is a warning, or an error with strict=true") {
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,context=32768");
  REQUIRE(w.warnings.size() == 1);
  CHECK(contains(w.warnings[0], "max_context 8192"));
  CHECK_THROWS_WITH(WorkloadCatalog::build("decode:model=llama3_8b,context=32768,strict=true"),
                    doctest::Contains("strict=true"));
}

TEST_CASE("llm models: DeepSeek-V3's latent KV cache and parameter count") {
  ModelArchitecture a = load_architecture("deepseek_v3");
  CHECK(a.is_mla());
  CHECK(a.kv_elements_per_layer() == 512 + 64);
  // Attention per layer: q_a 7168·1536, q_b 1536·128·192, kv_a 7168·576, kv_b 512·128·(128+128),
  // o 128·128·7168.
  double attention = 7168.0 * 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 + 512.0 * 128 * 256 + 128.0 * 128 * 7168;
  CHECK(a.attention_weights() == doctest::Approx(attention));
  double params = 0;
  for (std::int64_t i = 0; i < a.layers; ++i) params += a.attention_weights() + a.ffn_weights(i);
  params += 2.0 * 129280 * 7168;  // embedding and LM head
  CHECK(params == doctest::Approx(671e9).epsilon(0.01));  // DeepSeek-V3: 671B parameters
  Workload w = WorkloadCatalog::build("decode:model=deepseek_v3,context=4096,layers=4,weights=fp8");
  CHECK(w.llm->kv_bytes_per_token == doctest::Approx(4.0 * 576 * 2));
  CHECK_THROWS_AS(WorkloadCatalog::build("decode:model=deepseek_v3,context=4096,tp=2"), UserError);
}
