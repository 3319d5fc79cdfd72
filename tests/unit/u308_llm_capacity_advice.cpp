// fit_advice: bytes needed vs available, and the largest batch / context that would fit.
#include <doctest/doctest.h>

#include "workloads/llm/capacity.h"

using namespace hwsim;

TEST_CASE("llm capacity: footprint and the largest batch and context that fit") {
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=64,context=8191");
  REQUIRE(w.llm);
  const LlmFacts& f = *w.llm;
  // Linear weights (QKV, O, gate/up/down) and the LM head in bf16, embedding and norms too.
  const double h = 4096, layers = 32, vocab = 128256;
  double linear = layers * ((48 * 128) * h + h * h + 3 * h * 14336) + vocab * h;
  double embedding_and_norms = vocab * h + (2 * layers + 1) * h;
  CHECK(f.weight_bytes == doctest::Approx(2 * (linear + embedding_and_norms)));
  CHECK(f.kv_bytes_per_token == layers * 2 * 8 * 128 * 2);
  CHECK(f.kv_bytes == doctest::Approx(64 * 8192 * f.kv_bytes_per_token));

  double capacity = 80e9;
  CHECK(f.total_bytes() > capacity);  // 16 GB of weights + 68.7 GB of KV cache
  std::int64_t batch = largest_fitting_batch(f, capacity);
  CHECK(footprint_bytes(f, batch, f.context) <= capacity);
  CHECK(footprint_bytes(f, batch + 1, f.context) > capacity);
  std::int64_t context = largest_fitting_context(f, capacity);
  CHECK(footprint_bytes(f, f.batch, context) <= capacity);
  CHECK(footprint_bytes(f, f.batch, context + 1) > capacity);

  std::string line = fit_advice(w, capacity);
  CHECK(line.find("does not fit") != std::string::npos);
  CHECK(line.find("largest batch at 8192 positions: " + std::to_string(batch)) != std::string::npos);
  CHECK(line.find("largest context at batch 64: " + std::to_string(context)) != std::string::npos);
  CHECK(line.find('\n') == std::string::npos);

  CHECK(fit_advice(WorkloadCatalog::build("decode_llama8b"), capacity).find(": fits") != std::string::npos);
  CHECK(fit_advice(WorkloadCatalog::build("decode_llama70b"), capacity).find("weights alone") != std::string::npos);
  CHECK(fit_advice(WorkloadCatalog::build("gemm:M=8,N=8,K=8"), capacity).empty());
}
