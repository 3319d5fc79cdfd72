// Every parallel-layout mistake is one line UserError(workload) naming the numbers and what would do.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"
#include "tests/fixtures/workload_support.h"

#include "sim/error.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string error_of(const std::string& spec) { return test::workload_error_of(spec); }
bool has(const std::string& text, const std::string& part) { return test::contains(text, part); }
}  // namespace

TEST_CASE("llm parallel: invalid layouts are one-line errors with the numbers") {
  std::string tp3 = error_of("decode_llama8b:tp=3");
  CHECK(has(tp3, "workload 'decode_llama8b:tp=3': "));
  CHECK(has(tp3, "tp=3 does not divide the 32 query heads and 8 KV heads of llama3_8b (tp = 1, 2, 4, 8 would)"));
  CHECK(has(error_of("decode_llama8b:tp=16"), "tp=16 does not divide the 32 query heads and 8 KV heads of llama3_8b"));
  CHECK(has(error_of("prefill:model=llama3_70b,prompt=16,tp=16"), "64 query heads and 8 KV heads of llama3_70b"));
  CHECK(has(error_of("decode_llama8b:tp=8,ffn=14004"),
            "tp=8 does not divide the FFN intermediate size (ffn) 14004 of llama3_8b (tp = 1, 2, 4 would)"));
  CHECK(has(error_of("decode_llama8b:pp=33"),
            "pp=33 exceeds the 32 layers of llama3_8b (each stage holds at least one layer: pp = 1 to 32)"));
  CHECK(has(error_of("decode_llama8b:ep=2"), "ep=2 needs a mixture-of-experts model; llama3_8b is dense (experts = 1)"));
  CHECK(has(error_of("decode_mixtral:ep=3"), "ep=3 does not divide the 8 experts of mixtral_8x7b (ep = 1, 2, 4, 8 would)"));
  CHECK(has(error_of("decode_llama8b:batch=4,microbatches=2"), "microbatches=2 needs pp > 1"));
  CHECK(has(error_of("decode_llama8b:batch=3,dp=2"),
            "batch=3 is not divisible by dp·ep·microbatches = 2 (dp=2, ep=1, microbatches=1)"));
  CHECK(has(error_of("decode_llama8b:batch=6,pp=2,microbatches=4"),
            "batch=6 is not divisible by dp·ep·microbatches = 4 (dp=1, ep=1, microbatches=4)"));
  CHECK(has(error_of("decode_mixtral:batch=2,ep=4"), "dp·ep·microbatches = 4 (dp=1, ep=4, microbatches=1)"));
  CHECK(has(error_of("generate_llama8b:dp=2"), "batch=1 is not divisible by dp·ep·microbatches = 2"));
  CHECK(has(error_of("decode_llama8b:tp=0"), "tp: '0' must be at least 1"));
  CHECK(has(error_of("decode_llama8b:microbatches=0"), "microbatches: '0' must be at least 1"));
  std::string unknown = error_of("decode_llama8b:tpp=2");
  CHECK(has(unknown, "tpp: unknown field"));
  CHECK(has(unknown, "microbatches"));
  // The vocabulary need not divide: it is padded (gpt2's 50257 at tp=2).
  CHECK_NOTHROW(WorkloadCatalog::build("decode:model=gpt2,batch=1,context=10,tp=2"));
}
