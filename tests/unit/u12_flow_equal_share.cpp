// Two equal flows over one resource get half its capacity each.
#include <doctest/doctest.h>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("flow: two equal flows share a resource equally") {
  FlowNetwork net;
  ResourceId hbm = net.add_resource("hbm", 100.0);  // 100 B/s
  FlowId a = net.start({100.0, FlowSpec{}.max_rate, {{hbm, 1.0}}});
  FlowId b = net.start({100.0, FlowSpec{}.max_rate, {{hbm, 1.0}}});
  CHECK(net.current_rate(a) == doctest::Approx(50.0));
  CHECK(net.current_rate(b) == doctest::Approx(50.0));
  // 200 B through 100 B/s: both finish at 2 s.
  CHECK(net.next_completion() == doctest::Approx(2.0));
  net.advance_to(net.next_completion());
  auto done = net.take_finished();
  CHECK(done == std::vector<FlowId>{a, b});
  CHECK(net.bytes_through(hbm) == doctest::Approx(200.0));
  CHECK(net.busy_seconds(hbm) == doctest::Approx(2.0));
}
