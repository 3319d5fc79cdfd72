// Model architecture files load with their Hugging Face config.json values.
#include <algorithm>
#include <doctest/doctest.h>

#include "workloads/llm/architecture.h"

using namespace hwsim;

TEST_CASE("llm models: the six architecture files load with their config.json values") {
  auto names = architecture_names();
  for (const char* n : {"gpt2", "llama2_7b", "llama3_70b", "llama3_8b", "mistral_7b", "mixtral_8x7b"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());

  ModelArchitecture l8 = load_architecture("llama3_8b");
  CHECK(l8.layers == 32);
  CHECK(l8.hidden == 4096);
  CHECK(l8.heads == 32);
  CHECK(l8.kv_heads == 8);
  CHECK(l8.head_dim == 128);
  CHECK(l8.ffn == 14336);
  CHECK(l8.vocab == 128256);
  CHECK(l8.gated);
  CHECK(l8.norm == "rmsnorm");
  CHECK_FALSE(l8.tied_embeddings);

  CHECK(load_architecture("llama2_7b").kv_heads == 32);  // multi-head attention
  CHECK(load_architecture("mistral_7b").window == 4096);
  ModelArchitecture mx = load_architecture("mixtral_8x7b");
  CHECK(mx.experts == 8);
  CHECK(mx.top_k == 2);
  ModelArchitecture g2 = load_architecture("gpt2");
  CHECK(g2.norm == "layernorm");
  CHECK(g2.position == "learned");
  CHECK(g2.tied_embeddings);
  CHECK_FALSE(g2.gated);
  CHECK(load_architecture("llama3_70b").layers == 80);
  ModelArchitecture g3 = load_architecture("gpt3_175b");  // Brown et al. 2020, Table 2.1
  CHECK(g3.layers == 96);
  CHECK(g3.hidden == 12288);
  CHECK(g3.heads * g3.head_dim == 12288);
  CHECK(g3.ffn == 4 * 12288);
}
