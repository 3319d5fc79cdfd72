// Reusing the time of an identical step shape: a run with reuse=false simulates every engine
// step again. The device's step time then differs only by SystemC's 1 fs time grid at another
// absolute start (a few fs in a step of ~0.6 ms), so every count and schedule decision is the
// same and every time agrees to 1e-9 relative. The same seed gives the same numbers bit for bit.
#include <doctest/doctest.h>

#include <cmath>

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
  CHECK(same_within(reused, fresh, 1e-9));
  CHECK(serve_numbers("h100", spec) == reused);
  CHECK(serve_numbers("h100", "serve:model=llama3_8b,layers=1,requests=6,rate=200,prompt=uniform:8..40,output="
                              "uniform:2..12,seed=6,max_batch=4") != reused);
}
