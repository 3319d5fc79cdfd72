// Speculative decoding in the engine, with every draft accepted (accept=1, k=3): a request of
// output 9 takes 3 engine steps — the prefill (its first token; the draft prefills the prompt too),
// then two verifications of 4 tokens each (3 drafts + the target's own). Each verification step
// runs 3 draft passes before the target's; the step's time is theirs added. Output 7: the second
// verification's 4 tokens are capped at the 2 left. Tokens of one step stream out as one chunk:
// one inter-token gap per step.
#include <doctest/doctest.h>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string run(std::int64_t output) {
  return serve_formatted("h100", fmt::format("serve:model=llama3_8b,layers=1,requests=1,prompt=16,output={},"
                                             "draft=llama3_2_1b,k=3,accept=1,baseline=false", output),
                         {}, [](const ServingMetrics& m) {
                           std::string s = fmt::format("steps {} itl {} ver {} acc {} tps {} exp {}\n", m.steps.size(),
                                                       m.itl_s.count, m.speculative.verifications,
                                                       m.speculative.accepted_per_step, m.speculative.tokens_per_step,
                                                       m.speculative.expected_tokens_per_step);
                           for (const auto& st : m.steps)
                             s += fmt::format("{} {} {} {} {}\n", st.decodes, st.prefill_tokens, st.verified, st.accepted,
                                              st.seconds > st.draft_seconds && st.draft_seconds > 0 ? "drafted" : "no");
                           return s;
                         });
}
}  // namespace

TEST_CASE("serve speculative: accept=1 yields k + 1 tokens per verification step") {
  auto lines = lines_of(run(9));
  REQUIRE(lines.size() == 4u);
  CHECK(lines[0] == "steps 3 itl 2 ver 2 acc 3 tps 4 exp 4");
  CHECK(lines[1] == "0 16 0 0 drafted");  // the prefill: draft and target both over the prompt
  CHECK(lines[2] == "1 0 1 3 drafted");   // tokens 2..5
  CHECK(lines[3] == "1 0 1 3 drafted");   // tokens 6..9
}

TEST_CASE("serve speculative: the last verification is capped at the tokens left") {
  auto lines = lines_of(run(7));
  REQUIRE(lines.size() == 4u);
  CHECK(lines[0] == "steps 3 itl 2 ver 2 acc 3 tps 4 exp 4");  // 1 + 4 + 2 of the 4 drafted
}
