// reuse=ops, the approximate mode: a pass's time is composed from its ops' shapes, each simulated
// once (layers of one shape share them), so far fewer device runs; the schedule's figures stay
// close to the exact run's — within 3 % here, where the exact and composed times differ only by
// what an op's neighbours leave in the caches. Off by default: the default run is the exact one.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string figures(const ServingMetrics& m) {
  return fmt::format("{:.17g} {:.17g} {:.17g} {:.17g} {} {}", m.duration_s, m.ttft_s.mean, m.tpot_s.mean, m.e2e_s.p90,
                     m.simulated_steps, m.engine_steps);
}
std::vector<double> numbers(const std::string& s) {
  std::istringstream in(s);
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}
const char* kSpec = "serve:model=llama3_8b,layers=4,requests=24,rate=400,prompt=uniform:32..256,output=uniform:8..48,seed=4";
}  // namespace

TEST_CASE("serve reuse=ops: close to the exact run with fewer simulated passes") {
  auto exact = numbers(serve_formatted("h100", kSpec, {}, figures));
  auto composed = numbers(serve_formatted("h100", std::string(kSpec) + ",reuse=ops", {}, figures));
  REQUIRE(exact.size() == 6u);
  REQUIRE(composed.size() == 6u);
  for (int i = 0; i < 4; ++i) CHECK(std::abs(composed[std::size_t(i)] / exact[std::size_t(i)] - 1) < 0.03);
  CHECK(composed[4] < exact[4]);  // fewer device runs (probes of new op shapes only)
  CHECK(composed[5] > 0);
}
