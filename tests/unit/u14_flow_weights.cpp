// A flow crossing a resource with weight w consumes w times its rate there.
#include <doctest/doctest.h>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("flow: weights scale what a flow consumes") {
  FlowNetwork net;
  ResourceId hbm = net.add_resource("hbm", 90.0);
  FlowId one = net.start({1000.0, FlowSpec{}.max_rate, {{hbm, 1.0}}});
  FlowId two = net.start({1000.0, FlowSpec{}.max_rate, {{hbm, 2.0}}});
  // Max-min fair: equal rates r with 1·r + 2·r = 90 → r = 30.
  CHECK(net.current_rate(one) == doctest::Approx(30.0));
  CHECK(net.current_rate(two) == doctest::Approx(30.0));
}

TEST_CASE("flow: a flow with a small weight at a bottleneck is limited by its other resource") {
  FlowNetwork net;
  ResourceId l2 = net.add_resource("l2", 100.0);
  ResourceId hbm = net.add_resource("hbm", 10.0);
  // Half of this flow's bytes miss L2 and cross HBM: HBM allows 10 / 0.5 = 20 B/s.
  FlowId f = net.start({40.0, FlowSpec{}.max_rate, {{l2, 1.0}, {hbm, 0.5}}});
  CHECK(net.current_rate(f) == doctest::Approx(20.0));
  CHECK(net.next_completion() == doctest::Approx(2.0));  // 40 B at 20 B/s
  net.advance_to(2.0);
  net.take_finished();
  CHECK(net.bytes_through(l2) == doctest::Approx(40.0));
  CHECK(net.bytes_through(hbm) == doctest::Approx(20.0));
}
