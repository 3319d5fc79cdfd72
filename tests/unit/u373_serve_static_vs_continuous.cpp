// Static vs continuous batching on a hand-computable trace: three requests at t=0 (prompt 8,
// outputs 2, 6, 2), max_batch 2. Step 1 prefills A and B (their first tokens); step 2 decodes both
// (A done). Continuous: C is admitted at step 3 (prefill beside B's decode), decodes at step 4
// (done); B ends at step 6: 6 steps. Static: the batch runs until B ends at step 6; C is admitted at
// step 7 and ends at step 8.
#include <doctest/doctest.h>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string run(const std::string& batching) {
  std::string trace = write_trace("abc_" + batching + ".csv",
                                  "arrival_s,prompt_tokens,output_tokens\n0,8,2\n0,8,6\n0,8,2\n");
  return serve_numbers("h100", "serve:model=llama3_8b,layers=1,trace=" + trace + ",max_batch=2,batching=" + batching);
}
}  // namespace

TEST_CASE("serve batching: continuous admits the third request after step 2, static after step 6") {
  for (std::string batching : {"continuous", "static"}) {
    std::string out = run(batching);
    auto steps = lines_starting(out, "step ");
    auto reqs = lines_starting(out, "req ");
    bool cont = batching == "continuous";
    REQUIRE(steps.size() == (cont ? 6u : 8u));
    REQUIRE(reqs.size() == 3u);
    // req ID arrival first_scheduled first_token finish; step start seconds decodes prefill_tokens
    auto step_end = [&](std::size_t k) { return field(steps[k - 1], 1) + field(steps[k - 1], 2); };
    CHECK(field(reqs[0], 5) == step_end(2));               // A: 2 tokens
    CHECK(field(reqs[1], 5) == step_end(6));               // B: 6 tokens
    CHECK(field(reqs[2], 3) == step_end(cont ? 2 : 6));    // C scheduled
    CHECK(field(reqs[2], 4) == step_end(cont ? 3 : 7));    // C's first token
    CHECK(field(reqs[2], 5) == step_end(cont ? 4 : 8));
    CHECK(field(steps[0], 4) == 16);                       // step 1: two prefills of 8
    CHECK(field(steps[2], 4) == (cont ? 8 : 0));           // step 3: C's prefill beside B's decode
    CHECK(field(steps[2], 3) == (cont ? 1 : 2));           // static: A's finished slot still computes
  }
}
