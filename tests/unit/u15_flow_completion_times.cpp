// Completion times follow exactly from rates being recomputed when flows start and end.
#include <doctest/doctest.h>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("flow: when a short flow ends the long one speeds up") {
  FlowNetwork net;
  ResourceId r = net.add_resource("r", 100.0);
  FlowId a = net.start({100.0, FlowSpec{}.max_rate, {{r, 1.0}}});
  FlowId b = net.start({300.0, FlowSpec{}.max_rate, {{r, 1.0}}});
  // Both at 50 B/s: a finishes at 100/50 = 2 s; b then has 300 - 100 = 200 B left at 100 B/s,
  // so it finishes at 2 + 200/100 = 4 s.
  CHECK(net.next_completion() == doctest::Approx(2.0));
  net.advance_to(net.next_completion());
  CHECK(net.take_finished() == std::vector<FlowId>{a});
  CHECK(net.current_rate(b) == doctest::Approx(100.0));
  CHECK(net.next_completion() == doctest::Approx(4.0));
  net.advance_to(net.next_completion());
  CHECK(net.take_finished() == std::vector<FlowId>{b});
  CHECK(net.active_flows() == 0);
}

TEST_CASE("flow: a flow starting later slows the running one down") {
  FlowNetwork net;
  ResourceId r = net.add_resource("r", 100.0);
  FlowId a = net.start({300.0, FlowSpec{}.max_rate, {{r, 1.0}}});
  // a alone for 1 s: 100 B moved, 200 B left.
  net.advance_to(1.0);
  FlowId b = net.start({50.0, FlowSpec{}.max_rate, {{r, 1.0}}});
  // Both at 50 B/s: b ends at 1 + 50/50 = 2 s, when a has 200 - 50 = 150 B left;
  // a alone again at 100 B/s ends at 2 + 150/100 = 3.5 s.
  CHECK(net.next_completion() == doctest::Approx(2.0));
  net.advance_to(net.next_completion());
  CHECK(net.take_finished() == std::vector<FlowId>{b});
  CHECK(net.next_completion() == doctest::Approx(3.5));
  net.advance_to(net.next_completion());
  CHECK(net.take_finished() == std::vector<FlowId>{a});
}
