// A flow may cross any number of resources (an N-level memory hierarchy, a route over many links):
// the slowest one, weighted, sets its rate, and every resource counts the bytes it moved. Routes
// longer than four resources are given as a span the caller keeps alive.
#include <doctest/doctest.h>

#include <type_traits>
#include <vector>

#include "sim/engine/flow_network.h"

using namespace hwsim;

TEST_CASE("flow: a flow across seven resources runs at the pace of its tightest one") {
  FlowNetwork net;
  std::vector<FlowDemand> route;
  for (int i = 0; i < 7; ++i) route.push_back({net.add_resource("hop", i == 5 ? 25.0 : 100.0), 1.0});
  FlowDemands demands(route);
  REQUIRE(demands.size() == 7);
  FlowId f = net.start({100.0, FlowSpec{}.max_rate, demands});
  CHECK(net.current_rate(f) == doctest::Approx(25.0));
  CHECK(net.next_completion() == doctest::Approx(4.0));
  net.advance_to(4.0);
  net.take_finished();
  for (const auto& d : route) CHECK(net.bytes_through(d.resource) == doctest::Approx(100.0));
}

TEST_CASE("flow: two long routes sharing one hop split it fairly") {
  FlowNetwork net;
  ResourceId shared = net.add_resource("shared", 60.0);
  std::vector<FlowDemand> a, b;
  for (int i = 0; i < 5; ++i) a.push_back({net.add_resource("a", 1000.0), 1.0});
  for (int i = 0; i < 5; ++i) b.push_back({net.add_resource("b", 1000.0), 1.0});
  a.push_back({shared, 1.0});
  b.push_back({shared, 1.0});
  FlowId fa = net.start({300.0, FlowSpec{}.max_rate, FlowDemands(a)});
  FlowId fb = net.start({300.0, FlowSpec{}.max_rate, FlowDemands(b)});
  CHECK(net.current_rate(fa) == doctest::Approx(30.0));
  CHECK(net.current_rate(fb) == doctest::Approx(30.0));
}

TEST_CASE("flow: demands stay trivially copyable (flows are created by the million)") {
  CHECK(std::is_trivially_copyable_v<FlowDemands>);
  FlowDemands four{{0, 1.0}, {1, 1.0}, {2, 1.0}, {3, 1.0}};
  CHECK_THROWS_AS(four.push_back({4, 1.0}), std::logic_error);
}
