// Routing on the 16x16 torus of tpu_v5e_16x16 (chip = row·16 + column; 1 link of 50 GB/s to each
// of 4 neighbours, 1 µs a hop):
// - 0 → 15: the wraparound link of row 0, 1 hop (not 15).
// - 0 → 8: 8 hops either way round the row: both shortest paths, half the traffic each, so the
//   route sustains 2 × 50 = 100 GB/s; latency 8 × 1 µs.
// - 0 → 17: 2 hops via 1 or via 16, half each: 4 link directions of weight 1/2, 100 GB/s.
// - 0 → 136 (row 8, column 8): 8 + 8 = 16 hops.
// Without wraparound, 0 → 15 is 15 hops.
#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("cluster routing: the torus route takes the wraparound link, hops and latency add up") {
  Topology t = build_topology(system_spec("tpu_v5e_16x16"));
  Route wrap = route(t, 0, 15);
  CHECK(wrap.hops == 1);
  CHECK(wrap.latency == doctest::Approx(1e-6));
  REQUIRE(wrap.demands.size() == 1);
  CHECK(wrap.bandwidth == doctest::Approx(50e9));

  Route half = route(t, 0, 8);
  CHECK(half.hops == 8);
  CHECK(half.latency == doctest::Approx(8e-6));
  REQUIRE(half.demands.size() == 16);
  for (const auto& d : half.demands) CHECK(d.weight == doctest::Approx(0.5));
  CHECK(half.bandwidth == doctest::Approx(100e9));

  Route diagonal = route(t, 0, 17);
  CHECK(diagonal.hops == 2);
  CHECK(diagonal.latency == doctest::Approx(2e-6));
  REQUIRE(diagonal.demands.size() == 4);
  for (const auto& d : diagonal.demands) CHECK(d.weight == doctest::Approx(0.5));
  CHECK(diagonal.bandwidth == doctest::Approx(100e9));

  Route far = route(t, 0, 136);
  CHECK(far.hops == 16);
  CHECK(far.latency == doctest::Approx(16e-6));
  CHECK_FALSE(far.crosses_network);
}

TEST_CASE("cluster routing: without wraparound the torus is a mesh") {
  Topology t = build_topology(system_spec("tpu_v5e_16x16", {"scale_up.wraparound=false"}));
  Route r = route(t, 0, 15);
  CHECK(r.hops == 15);
  CHECK(r.latency == doctest::Approx(15e-6));
  CHECK(r.bandwidth == doctest::Approx(50e9));
}
