// Routing across the rail-optimised fat tree of h100_cluster (128 nodes of 8; 32 nodes a leaf):
// - GPU 0 (node 0, rail 0) → GPU 8 (node 1, rail 0): the same rail's leaf, device→leaf→device,
//   2 network hops: 2 × 0.2 µs latency, the NIC's 400 Gb/s = 50 GB/s, 2 × 20 pJ/bit × 8 per byte.
// - GPU 0 → GPU 256 (node 32, rail 0): leaves differ (node 32 is on the rail's second leaf), so
//   leaf → every one of the 32 spines → leaf: 4 hops, 0.8 µs, 1/32 of the traffic per spine, still
//   50 GB/s (the NIC is the narrowest: a leaf-spine link carries 1/32 of it).
// - GPU 0 → GPU 1 (same node): the NVSwitch route, no network.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("cluster routing: a cross-node same-rail route goes device-leaf-device and crosses the network") {
  Topology t = build_topology(system_spec("h100_cluster"));
  Route r = route(t, 0, 8);
  CHECK(r.hops == 2);
  CHECK(r.crosses_network);
  CHECK(r.latency == doctest::Approx(2 * 0.2e-6));
  REQUIRE(r.demands.size() == 2);
  for (const auto& d : r.demands) {
    CHECK(d.weight == doctest::Approx(1.0));
    CHECK(t.edge_of(d.resource).scale == LinkScale::scale_out);
  }
  CHECK(r.bandwidth == doctest::Approx(50e9));
  CHECK(r.energy_per_byte == doctest::Approx(2 * 8 * 20e-12));
}

TEST_CASE("cluster routing: leaves that differ route over every spine, 4 hops") {
  Topology t = build_topology(system_spec("h100_cluster"));
  Route r = route(t, 0, 256);
  CHECK(r.hops == 4);
  CHECK(r.crosses_network);
  CHECK(r.latency == doctest::Approx(4 * 0.2e-6));
  // NIC up, 32 leaf→spine, 32 spine→leaf, NIC down.
  REQUIRE(r.demands.size() == 66);
  int spread = 0;
  double total = 0;
  for (const auto& d : r.demands) {
    total += d.weight;
    if (d.weight == doctest::Approx(1.0 / 32)) ++spread;
  }
  CHECK(spread == 64);
  CHECK(total == doctest::Approx(4.0));  // every byte crosses 4 link directions
  CHECK(r.bandwidth == doctest::Approx(50e9));
}

TEST_CASE("cluster routing: inside a node of the cluster the route stays on NVLink") {
  Topology t = build_topology(system_spec("h100_cluster"));
  Route r = route(t, 0, 1);
  CHECK(r.hops == 2);
  CHECK_FALSE(r.crosses_network);
  CHECK(r.bandwidth == doctest::Approx(18 * 26.5625e9));
}
