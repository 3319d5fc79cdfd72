// Reusing the time of an identical step shape: a run with reuse=false simulates every engine
// step again, and gives every number bit for bit (a GPU simulates each kernel in times and sums
// measured from its own start, so a step runs the same bits at any absolute time). The same seed
// gives the same numbers bit for bit.
// Under a power limit the clock governor's history carries from step to step too: a step is
// reused only where the device would run it exactly as recorded (its caches as they were, its
// governor setting the same clocks), and is left as that step left it (StepReplay::replay_step).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

#include "tests/unit/u37_serve_support.h"

using namespace hwsim;
using namespace hwsim::test;


TEST_CASE("serve reuse: reused shapes give the schedule of re-simulated ones, the same seed the same numbers") {
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=6,rate=200,prompt=uniform:8..40,output=uniform:"
                           "2..12,seed=5,max_batch=4,context_bucket=16";
  std::string reused = serve_numbers("h100", spec);
  std::string fresh = serve_numbers("h100", spec + ",reuse=false");
  CHECK(lines_of(reused).size() == lines_of(fresh).size());
  INFO(reused);
  INFO(fresh);
  CHECK(reused == fresh);
  CHECK(serve_numbers("h100", spec) == reused);
  CHECK(serve_numbers("h100", "serve:model=llama3_8b,layers=1,requests=6,rate=200,prompt=uniform:8..40,output="
                              "uniform:2..12,seed=6,max_batch=4") != reused);
}

TEST_CASE("serve reuse: under a power limit reused steps give the numbers of re-simulated ones") {
  // The governor throttles nearly all the time at both limits. At 100 W it holds the lowest clock,
  // so steps replay (stop 29 took a pair's time whatever the governor's history: the run came out
  // 3.7 % shorter than re-simulated); at 300 W its clocks depend on its history, so steps are
  // simulated again (1.1 % off before).
  const std::string spec = "serve:model=llama3_8b,layers=2,requests=12,rate=inf,prompt=64,output=12,max_batch=4";
  auto simulated = [&](const char* limit) {  // passes simulated, and the engine's steps
    std::string counts = serve_formatted("h100", spec, {limit}, [](const ServingMetrics& m) {
      return fmt::format("{} {}", m.simulated_steps, m.engine_steps);
    });
    std::pair<long, long> n;
    std::sscanf(counts.c_str(), "%ld %ld", &n.first, &n.second);
    return n;
  };
  for (const char* limit : {"power.tdp=100W", "power.tdp=300W"}) {
    CAPTURE(limit);
    std::string reused = serve_numbers("h100", spec, {limit});
    std::string fresh = serve_numbers("h100", spec + ",reuse=false", {limit});
    INFO(reused);
    INFO(fresh);
    CHECK(lines_of(reused).size() == lines_of(fresh).size());
    CHECK(reused == fresh);
  }
  // both paths ran: at 100 W steps replayed, at 300 W the governor refused more of them
  const auto low = simulated("power.tdp=100W"), mid = simulated("power.tdp=300W");
  CHECK(low.first < low.second);
  CHECK(mid.first > low.first);
}

TEST_CASE("serve reuse: with prefix caching and priorities reused shapes give the re-simulated numbers") {
  // Shared prompts (hits shorten prefill chunks), priorities under a small pool (priority preemption
  // may unschedule a request already planned this step): every number as re-simulated.
  const std::string spec = "serve:model=llama3_8b,layers=1,requests=10,rate=300,prompt=uniform:40..120,output=uniform:"
                           "4..24,seed=3,max_batch=4,shared_prefix=32,scheduling=priority,priority=uniform:0..2,"
                           "kv_blocks=20";
  std::string reused = serve_numbers("h100", spec);
  std::string fresh = serve_numbers("h100", spec + ",reuse=false");
  INFO(reused);
  INFO(fresh);
  CHECK(reused == fresh);
  CHECK(serve_numbers("h100", spec) == reused);
}
