// Bad train specs are one-line UserError(workload)s that say what would be right.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"
#include "tests/fixtures/workload_support.h"

#include "sim/error.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string error_of(const std::string& spec) { return test::workload_error_of(spec); }
bool has(const std::string& text, const std::string& part) { return test::contains(text, part); }
const std::string kBase = "train:model=llama3_8b,layers=2,";
}  // namespace

TEST_CASE("train specs: zero=4, seq=0, dp not dividing batch and other mistakes") {
  std::string zero = error_of(kBase + "batch=8,seq=128,zero=4");
  CHECK(has(zero, "zero: '4' is not a ZeRO stage"));
  CHECK(has(zero, "3 (+ parameters)"));
  CHECK(has(error_of(kBase + "batch=8,seq=0"), "seq: '0' must be at least 1"));
  CHECK(has(error_of(kBase + "batch=8"), "seq: missing"));
  std::string split = error_of(kBase + "batch=6,seq=128,dp=4");
  CHECK(has(split, "batch: 6 sequences do not split into dp=4 replicas x microbatches=1"));
  CHECK(has(split, "batch=8"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,dp=2,microbatches=3"), "multiple of 6"));
  CHECK(has(error_of(kBase + "batch=8,seq=9000"), "max_context 8192"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,checkpoint=ful"), "did you mean full?"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,optimizer=sgd"), "valid: adam"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,weights=int4"), "training in int4 is not modelled"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,bucket=25KB"), "bucket: '25KB'"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,bucket=-5MiB"), "bucket"));
  std::string field = error_of(kBase + "batch=8,seq=128,zer0=1");
  CHECK(has(field, "zer0: unknown field"));
  CHECK(has(field, "checkpoint"));
  // tp and pp by the inference layout's rules (parallel_layout.h).
  CHECK(has(error_of(kBase + "batch=8,seq=128,pp=3"), "pp=3 exceeds the 2 layers"));
  CHECK(has(error_of(kBase + "batch=8,seq=128,tp=3"), "tp=3 does not divide the 32 query heads"));
}
