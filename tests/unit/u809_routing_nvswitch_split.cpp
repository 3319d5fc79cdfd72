// Routing through NVSwitch chips: every shortest path at once, traffic split at each hop by the
// bandwidth of the next links. dgx_h100: GPU 0 → GPU 1 is 2 hops through each of the 4 switches;
// the links are 5,5,4,4 of 18, so the split is 5/18, 5/18, 4/18, 4/18 on the way up and the same
// on the way down; each byte sent crosses 2 link directions (weights sum to 2). The route alone
// sustains min(capacity / weight) = (5 × 26.5625 GB/s) / (5/18) = 18 × 26.5625 = 478.125 GB/s.
#include <algorithm>

#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("cluster routing: dgx_h100 GPU 0 to 1 splits 5/18,5/18,4/18,4/18 over the switches, 18 links' bandwidth") {
  SystemSpec s = system_spec("dgx_h100");
  Topology t = build_topology(s);
  Route r = route(t, 0, 1);
  CHECK(r.hops == 2);
  CHECK_FALSE(r.crosses_network);
  CHECK(r.latency == 0);  // scale_up.latency = "0 s"
  REQUIRE(r.demands.size() == 8);
  std::vector<double> up, down;
  double total = 0;
  for (const auto& d : r.demands) {
    std::string name = t.resource_name(d.resource);
    if (name.starts_with("dev0→")) up.push_back(d.weight);
    else if (name.ends_with("→dev1")) down.push_back(d.weight);
    else FAIL("a demand off the route: " << name);
    total += d.weight;
    // Each bundle carries its share of the links: weight = links / 18.
    CHECK(d.weight == doctest::Approx(t.edge_of(d.resource).links / 18.0));
  }
  std::sort(up.begin(), up.end());
  std::sort(down.begin(), down.end());
  std::vector<double> expected{4.0 / 18, 4.0 / 18, 5.0 / 18, 5.0 / 18};
  REQUIRE(up.size() == 4);
  REQUIRE(down.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(up[i] == doctest::Approx(expected[i]));
    CHECK(down[i] == doctest::Approx(expected[i]));
  }
  CHECK(total == doctest::Approx(2.0));
  CHECK(r.bandwidth == doctest::Approx(18 * 26.5625e9));
  // Energy: 2 hops of 5 pJ/bit = 2 × 40 pJ per byte.
  CHECK(r.energy_per_byte == doctest::Approx(2 * 8 * 5e-12));
}

TEST_CASE("cluster routing: the route back uses the other direction of the same links") {
  Topology t = build_topology(system_spec("dgx_h100"));
  Route there = route(t, 0, 1), back = route(t, 1, 0);
  REQUIRE(there.demands.size() == back.demands.size());
  for (std::size_t i = 0; i < there.demands.size(); ++i) {
    // Resources 2·id and 2·id + 1 are the two directions of edge id.
    bool shared = std::any_of(back.demands.begin(), back.demands.end(),
                              [&](const FlowDemand& d) { return d.resource == there.demands[i].resource; });
    CHECK_FALSE(shared);
    bool reverse = std::any_of(back.demands.begin(), back.demands.end(),
                               [&](const FlowDemand& d) { return d.resource / 2 == there.demands[i].resource / 2; });
    CHECK(reverse);
  }
}
