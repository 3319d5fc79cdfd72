// The same calls in the same order give bit-identical completion times.
#include <doctest/doctest.h>

#include <vector>

#include "sim/engine/flow_network.h"

using namespace hwsim;

namespace {
// A busy little network: 3 resources, 40 flows of varied sizes, caps and weights, started at
// staggered times; returns every completion as (time, flow id) in order.
std::vector<std::pair<double, FlowId>> run_once() {
  FlowNetwork net;
  ResourceId l2 = net.add_resource("l2", 7e12);
  ResourceId hbm = net.add_resource("hbm", 3.35e12);
  ResourceId port = net.add_resource("port", 1e12);
  std::vector<std::pair<double, FlowId>> times;
  int started = 0;
  while (started < 40 || net.active_flows() > 0) {
    if (started < 40) {
      double bytes = 1e6 * (1 + started % 7);
      double cap = started % 3 == 0 ? 2e11 : FlowSpec{}.max_rate;
      net.start({bytes, cap, {{l2, 1.0}, {hbm, 0.1 * (started % 5)}, {port, started % 2 ? 1.0 : 0.0}}});
      ++started;
      net.advance_to(net.now() + 1e-7);
    } else {
      net.advance_to(net.next_completion());
    }
    for (FlowId id : net.take_finished()) times.emplace_back(net.now(), id);
  }
  return times;
}
}  // namespace

TEST_CASE("flow: deterministic") {
  auto first = run_once();
  auto second = run_once();
  REQUIRE(first.size() == 40);
  CHECK(first == second);  // bit-identical, not approximately equal
}
