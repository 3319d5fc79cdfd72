// Presets fill in their documented defaults, and fields given in the spec win.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm presets: documented defaults that spec fields override") {
  Workload d = WorkloadCatalog::build("decode_llama8b");
  REQUIRE(d.llm);
  CHECK(d.llm->model == "llama3_8b");
  CHECK(d.llm->phase == "decode");
  CHECK(d.llm->batch == 1);
  CHECK(d.llm->context == 512 + 1);
  CHECK(d.steps.size() == 1);
  CHECK(d.steps[0].label == "decode@513");

  Workload p = WorkloadCatalog::build("prefill_llama8b");
  CHECK(p.llm->phase == "prefill");
  CHECK(p.llm->context == 2048);
  CHECK(p.steps[0].label == "prefill");

  CHECK(WorkloadCatalog::build("decode_llama70b").llm->model == "llama3_70b");
  CHECK(WorkloadCatalog::build("decode_mixtral").llm->model == "mixtral_8x7b");
  Workload gen = WorkloadCatalog::build("generate_llama8b");
  CHECK(gen.llm->context == 128 + 128);
  CHECK(gen.steps.size() == 128);  // 128 tokens: the prefill gives the first

  Workload b8 = WorkloadCatalog::build("decode_llama8b:batch=8,kv=fp8");
  CHECK(b8.llm->batch == 8);
  CHECK(b8.steps[0].tokens == 8);
  CHECK(b8.llm->kv_bytes_per_token == 32 * 2 * 8 * 128 * 1.0);  // fp8: 1 byte per element

  for (const char* name : {"decode_llama8b", "prefill_llama8b", "decode_llama70b", "decode_mixtral", "generate_llama8b"})
    CHECK(WorkloadCatalog::entries().at(name).description.find("batch=1") != std::string::npos);
}
