// Bad LLM specs are one-line UserError(workload)s that say what would be right.
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

TEST_CASE("llm specs: unknown model or phase or field lists the valid ones and bad numbers are named") {
  std::string model = error_of("decode:model=llama3_9b,batch=1,context=10");
  CHECK(has(model, "llama3_8b"));
  CHECK(has(model, "mixtral_8x7b"));

  std::string phase = error_of("decod:model=llama3_8b,batch=1,context=10");
  CHECK(has(phase, "did you mean decode?"));
  CHECK(has(phase, "generate"));

  std::string field = error_of("decode:model=llama3_8b,batch=1,context=10,contex=5");
  CHECK(has(field, "contex: unknown field"));
  CHECK(has(field, "context"));
  CHECK(has(field, "experts"));  // architecture fields are valid too

  CHECK(has(error_of("decode:model=llama3_8b,batch=0,context=10"), "batch: '0' must be at least 1"));
  CHECK(has(error_of("decode:model=llama3_8b,batch=1,context=-5"), "context: '-5' is negative"));
  CHECK(has(error_of("decode:model=llama3_8b,batch=1,context=9000,strict=true"), "max_context 8192"));
  CHECK(has(error_of("generate:model=gpt2,batch=1,prompt=1000,output=100,strict=true"), "max_context 1024"));
  CHECK(has(error_of("decode:model=llama3_8b,context=10,act=int4"), "weight-only"));
  CHECK(has(error_of("decode:batch=1,context=10"), "model: missing"));
}
