// Two replicas of a serving engine share one step-reuse table (run/serving/serving_step_cache.h):
// while one waits a reused pass's time, the other stores passes of the same pair, so the one taking
// a variant must hold its own copy (a reference into the table dangled and crashed: ASan in CI
// sees it). Reuse stays exact: the same numbers as re-simulating every pass.
#include <doctest/doctest.h>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string run_numbers(const ServingMetrics& m) {
  std::string out = fmt::format("dur {:a} ttft {:a} tpot {:a} steps {}\n", m.duration_s, m.ttft_s.mean, m.tpot_s.mean,
                                m.engine_steps);
  for (const auto& q : m.per_request) out += fmt::format("{} {:a} {:a}\n", q.id, q.first_token, q.finish);
  return out;
}
}  // namespace

TEST_CASE("serve reuse: two replicas sharing the table take their variants safely and exactly") {
  const std::string spec = "serve:model=llama3_8b,requests=24,rate=20,prompt=uniform:64..512,output=uniform:8..48,seed=4,dp=2";
  std::string reused = serve_on_system("h100x2", spec, run_numbers);
  std::string simulated = serve_on_system("h100x2", spec + ",reuse=false", run_numbers);
  CHECK(reused == simulated);
  CHECK(reused.find("steps") != std::string::npos);
}
