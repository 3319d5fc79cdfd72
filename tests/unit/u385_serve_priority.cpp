// Priority scheduling (docs/serving.md, "Priorities"), as vLLM v1's scheduler with
// --scheduling-policy priority: the waiting queue ordered by (priority, arrival), lower first; when
// blocks run out the running request of the highest priority value (then the latest arrival) is
// preempted, even one already scheduled in this step; a waiting request never preempts. fcfs (the
// default) ignores priorities: the same bits with or without them.
#include <doctest/doctest.h>

#include <iterator>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {

// Each request's "preemptions first_scheduled", one a line.
std::string per_request(const std::string& spec) {
  return serve_formatted("h100", spec, {}, [](const ServingMetrics& m) {
    std::string s;
    for (const auto& r : m.per_request) s += fmt::format("{} {:a}\n", r.preemptions, r.first_scheduled);
    return s;
  });
}

}  // namespace

TEST_CASE("priority: under overload priority 0's TTFT is below priority 2's; fcfs treats them alike") {
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=60,rate=inf,prompt=512,output=32,"
                           "priority=uniform:0..2,max_batch=16,seed=2";
  auto classes = [&](const std::string& scheduling) {
    return serve_formatted("h100", spec + ",scheduling=" + scheduling, {}, [](const ServingMetrics& m) {
      std::string s = m.scheduling;
      for (const auto& c : m.priority_classes)
        s += fmt::format(" {} {} {:a} {:a}", c.priority, c.requests, c.ttft_s.mean, c.e2e_s.p99);
      return s;
    });
  };
  std::string pr = classes("priority"), fc = classes("fcfs");
  INFO(pr);
  INFO(fc);
  CHECK(lines_starting(pr, "priority ").size() == 1);
  std::istringstream words(pr);
  REQUIRE(std::distance(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()) == 13);
  // classes 0, 1, 2 of the same requests in both runs
  for (int c = 0; c < 3; ++c) {
    CHECK(field(pr, 1 + 4 * c) == c);
    CHECK(field(pr, 2 + 4 * c) == field(fc, 2 + 4 * c));
  }
  CHECK(field(pr, 2) + field(pr, 6) + field(pr, 10) == 60);
  CHECK(field(pr, 3) < field(pr, 7));
  CHECK(field(pr, 7) < field(pr, 11));
  CHECK(field(pr, 3) < 0.5 * field(fc, 3));  // priority 0 waits far less than under fcfs
  CHECK(field(pr, 11) > field(fc, 11));      // priority 2 waits longer
}

TEST_CASE("priority: the victim is the worst priority, not the last admitted (vLLM v1's max(priority, arrival))") {
  // Three prompts of 64 tokens (4 blocks each) in 13 blocks: the first decodes take a fifth block
  // each; the second finds none. fcfs preempts the last admitted (request 2); priority preempts
  // request 0 (priority 2), already scheduled in this step, and gives its blocks to request 1.
  std::string path = write_trace("u385_victim.csv", "arrival_s,prompt_tokens,output_tokens,priority\n"
                                                    "0,64,64,2\n0,64,64,0\n0,64,64,0\n");
  const std::string spec = "serve:model=llama3_8b,layers=1,kv_blocks=13,trace=" + path;
  auto fc = lines_of(per_request(spec)), pr = lines_of(per_request(spec + ",scheduling=priority"));
  REQUIRE(fc.size() == 3);
  REQUIRE(pr.size() == 3);
  CHECK(field(fc[0], 0) == 0);
  CHECK(field(fc[2], 0) >= 1);
  CHECK(field(pr[0], 0) >= 1);
  CHECK(field(pr[1], 0) == 0);
}

TEST_CASE("priority: a later request of better priority is admitted before earlier worse ones") {
  // One slot: request 0 runs; 1 (priority 2) and 2 (priority 0) wait; 2 goes next under priority.
  std::string path = write_trace("u385_order.csv", "arrival_s,prompt_tokens,output_tokens,priority\n"
                                                   "0,32,40,1\n0.001,32,4,2\n0.002,32,4,0\n");
  const std::string spec = "serve:model=llama3_8b,layers=1,max_batch=1,trace=" + path;
  auto fc = lines_of(per_request(spec)), pr = lines_of(per_request(spec + ",scheduling=priority"));
  REQUIRE(pr.size() == 3);
  CHECK(field(fc[1], 1) < field(fc[2], 1));
  CHECK(field(pr[2], 1) < field(pr[1], 1));
}

TEST_CASE("priority: fcfs ignores priorities bit for bit; priority draws leave lengths and arrivals alone") {
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=10,rate=300,prompt=uniform:16..200,output=uniform:"
                           "2..20,seed=4,max_batch=4,kv_blocks=24";
  CHECK(serve_numbers("h100", spec) == serve_numbers("h100", spec + ",priority=uniform:0..3"));
  auto drawn = [&](const std::string& extra) {
    return serve_formatted("h100", spec + extra, {}, [](const ServingMetrics& m) {
      std::string s;
      for (const auto& r : m.per_request) s += fmt::format("{} {} {:a} {}\n", r.prompt, r.output, r.arrival, r.priority);
      return s;
    });
  };
  std::string a = drawn(",priority=uniform:0..3"), b = drawn(",priority=uniform:0..3"), plain = drawn("");
  CHECK(a == b);  // seeded
  auto la = lines_of(a), lp = lines_of(plain);
  REQUIRE(la.size() == lp.size());
  bool several = false;
  for (std::size_t i = 0; i < la.size(); ++i) {
    CHECK(field(la[i], 0) == field(lp[i], 0));
    CHECK(field(la[i], 2) == field(lp[i], 2));
    several = several || field(la[i], 3) != field(la[0], 3);
  }
  CHECK(several);
}
