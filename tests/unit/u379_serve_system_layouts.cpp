// Serving on a system (h100x2): tp=2 runs each step's graph of one rank with its all-reduces on the
// NVLink between the two devices; its step times are reused only for the same shape after the same
// shape, and re-simulating every step (reuse=false) gives the same schedule and times bit for bit
// (the instance's links carry no other traffic). dp=2 runs two replicas: the router gives each arriving
// request to the one with fewer unfinished requests (the first on a tie), so four requests at once
// split 2 + 2; round robin alternates. A system run of one device is the chip run.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::string times(const ServingMetrics& m) {
  std::string s = fmt::format("steps {} layout {}\n", m.steps.size(), m.layout);
  for (const auto& r : m.per_request) s += fmt::format("req {} {} {:a} {:a}\n", r.id, r.instance, r.first_token, r.finish);
  return s;
}
const char* kSpec = "serve:model=llama3_8b,layers=1,requests=4,rate=500,prompt=uniform:8..40,output=uniform:2..10,seed=3";
}  // namespace

TEST_CASE("serve on a system: tp=2 reuse is exact") {
  std::string reused = serve_on_system("h100x2", std::string(kSpec) + ",tp=2", times);
  std::string fresh = serve_on_system("h100x2", std::string(kSpec) + ",tp=2,reuse=false", times);
  INFO(reused);
  INFO(fresh);
  CHECK(contains(reused, "layout 1 replica of tp=2"));
  CHECK(reused == fresh);
}

TEST_CASE("serve on a system: dp=2 replicas share the requests") {
  auto count = [](const std::string& text, const std::string& instance) {
    int n = 0;
    for (const auto& line : lines_starting(text, "req "))
      n += line.substr(line.find(' ', 4) + 1, instance.size() + 1) == instance + " " ? 1 : 0;
    return n;
  };
  const std::string all_at_once = "serve:model=llama3_8b,layers=1,requests=4,prompt=16,output=4,dp=2";
  std::string least = serve_on_system("h100x2", all_at_once, times);
  CHECK(count(least, "0") == 2);
  CHECK(count(least, "1") == 2);
  std::string rr = serve_on_system("h100x2", all_at_once + ",router=round_robin", times);
  auto reqs = lines_starting(rr, "req ");
  REQUIRE(reqs.size() == 4u);
  for (std::size_t i = 0; i < 4; ++i) CHECK(reqs[i].rfind(fmt::format("req {} {} ", i, i % 2), 0) == 0);
}

TEST_CASE("serve on a system: one device is the chip run") {
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=3,rate=300,prompt=16,output=5,seed=2";
  auto strip = [](std::string s) { return s.substr(s.find('\n')); };  // the layout line differs
  CHECK(strip(serve_on_system("h100x2", spec, times)) == strip(serve_formatted("h100", spec, {}, times)));
}
