// Late in a long run a double in seconds resolves less than 1 fs: a completion must still be
// scheduled strictly after now, or the engine would wake at the same instant forever.
#include <doctest/doctest.h>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("flow: a tiny remainder at t = 16 s completes strictly later than now") {
  FlowNetwork net;
  ResourceId hbm = net.add_resource("hbm", 1e12);
  net.advance_to(16.000045);
  net.start({1e-6, FlowSpec{}.max_rate, {{hbm, 1.0}}});  // 1e-18 s of work: far below one ulp of 16 s
  double next = net.next_completion();
  CHECK(next > net.now());
  net.advance_to(next);
  CHECK(net.take_finished().size() == 1);
}

TEST_CASE("flow: early in a run the minimum step stays one femtosecond") {
  FlowNetwork net;
  ResourceId hbm = net.add_resource("hbm", 1e12);
  net.advance_to(1e-3);
  net.start({1e-6, FlowSpec{}.max_rate, {{hbm, 1.0}}});
  CHECK(net.next_completion() == doctest::Approx(1e-3 + 1e-15).epsilon(1e-15));
}
