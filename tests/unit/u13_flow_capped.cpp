// A flow capped below its fair share leaves the rest of the resource to the others.
#include <doctest/doctest.h>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("flow: a capped flow leaves the rest to the other") {
  FlowNetwork net;
  ResourceId l2 = net.add_resource("l2", 100.0);
  FlowId slow = net.start({1000.0, 20.0, {{l2, 1.0}}});              // can sustain only 20 B/s
  FlowId fast = net.start({1000.0, FlowSpec{}.max_rate, {{l2, 1.0}}});
  CHECK(net.current_rate(slow) == doctest::Approx(20.0));
  CHECK(net.current_rate(fast) == doctest::Approx(80.0));             // 100 - 20
}

TEST_CASE("flow: a lone capped flow runs at its cap and not at the resource's capacity") {
  FlowNetwork net;
  ResourceId l2 = net.add_resource("l2", 100.0);
  FlowId f = net.start({30.0, 10.0, {{l2, 1.0}}});
  CHECK(net.current_rate(f) == doctest::Approx(10.0));
  CHECK(net.next_completion() == doctest::Approx(3.0));  // 30 B at 10 B/s
}
