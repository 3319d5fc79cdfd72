// The paged KV pool, against bytes computed by hand for Llama-3-8B in bf16.
#include <doctest/doctest.h>

#include <cmath>

#include "run/serving/serving_pool.h"
#include "sim/error.h"
#include "workloads/spec.h"

using namespace hwsim;

TEST_CASE("serve kv pool: Llama-3-8B bf16 on 80 GB at 0.9") {
  ServeSpec s = parse_serve_spec(WorkloadSpec::parse("serve:model=llama3_8b,requests=1,prompt=128,output=128"));
  KvPool p = size_kv_pool(s, 1, 80e9, "test");
  // K and V: 32 layers · 2 · 8 KV heads · 128 · 2 bytes.
  CHECK(p.bytes_per_token == 131072.0);
  // 8,030,261,248 parameters (per layer qkv 4096·6144 + o 4096² + MLP 3·4096·14336 + 2 norms of
  // 4096, ×32; embedding and LM head 128256·4096 each; final norm 4096), 2 bytes each.
  CHECK(p.weight_bytes == 2.0 * 8030261248.0);
  double pool = 80e9 * 0.9 - p.weight_bytes - p.activation_peak_bytes;
  CHECK(p.pool_bytes == pool);
  CHECK(p.blocks == std::int64_t(std::floor(pool / (16 * 131072.0))));
  CHECK(p.tokens() == p.blocks * 16);
  CHECK(p.activation_peak_bytes > 0);
  CHECK(p.activation_peak_bytes < 1e9);
}

TEST_CASE("serve kv pool: too small for the longest request is one clear error") {
  ServeSpec s = parse_serve_spec(WorkloadSpec::parse("serve:model=llama3_8b,requests=1,prompt=4096,output=4096"));
  try {
    size_kv_pool(s, 1, 17.5e9, "tiny");
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(std::string(e.what()).find("less than the longest request's 8192 tokens") != std::string::npos);
  }
}
