// decode_step, prefill_step and attention measurement records map to workload specs that build.
#include <doctest/doctest.h>

#include "sim/measurement/measurement.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string plan(const char* kind, const char* record) {
  Measurement m;
  m.kind = kind;
  m.fields = nlohmann::json::parse(record);
  auto p = MeasurementKinds::adapters().at(kind)(m);
  REQUIRE(p);
  WorkloadCatalog::build(p->workload);  // must be a valid spec
  return p->workload;
}
}  // namespace

TEST_CASE("llm measurements: records become specs (70B truncated to its measured layers)") {
  CHECK(plan("decode_step", R"({"model":"llama3_70b","batch":16,"context":1024,"layers":8,"weights":"bf16","kv":"bf16"})") ==
        "decode:model=llama3_70b,batch=16,context=1024,layers=8,weights=bf16,kv=bf16");
  CHECK(plan("decode_step", R"({"model":"llama3_8b","batch":1,"context":8192,"layers":32,"weights":"bf16","kv":"bf16"})") ==
        "decode:model=llama3_8b,batch=1,context=8192,layers=32,weights=bf16,kv=bf16");
  CHECK(plan("prefill_step", R"({"model":"llama3_8b","batch":4,"prompt":512,"layers":32,"weights":"bf16","kv":"bf16"})") ==
        "prefill:model=llama3_8b,batch=4,prompt=512,layers=32,weights=bf16,kv=bf16");
  CHECK(plan("attention", R"({"batch":4,"heads":32,"kv_heads":8,"head_dim":128,"q_len":512,"kv_len":512,"causal":true,"dtype":"bf16"})") ==
        "attention:batch=4,heads=32,kv_heads=8,head_dim=128,q_len=512,kv_len=512,causal=true,dtype=bf16");

  Measurement broken;
  broken.kind = "decode_step";
  broken.fields = nlohmann::json::parse(R"({"model":"llama3_8b","batch":1})");
  CHECK_FALSE(MeasurementKinds::adapters().at("decode_step")(broken));
}
