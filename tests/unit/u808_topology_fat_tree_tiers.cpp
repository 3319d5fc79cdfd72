// The scale-out fat tree (topology_builder.cpp, Builder::network): "Leaves take radix/2 endpoints
// each. One leaf in all: no spine. Up to `radix` leaves: a spine layer of radix/2 switches, each
// leaf linked to every spine. More: pods of radix/2 leaves with radix/2 aggregation switches each,
// and (radix/2)² core switches." Rail-optimised with one NIC per GPU: a plane (rail) per local
// GPU index, each with ceil(nodes / (radix/2)) leaves.
// h100_cluster (8 GPUs and 8 NICs a node, radix 64, so 32 nodes a leaf):
// - 128 nodes: 8 rails × ceil(128/32) = 32 leaves ≤ 64: two tiers, 32 spines, every leaf to every
//   spine (32 × 32 = 1024 edges); 1024 NIC edges; 128 × 32 scale-up edges = 4096.
//   Vertices: 1024 GPUs + 512 NVSwitch chips + 32 leaves + 32 spines = 1600.
// - 1024 nodes: 8 × 32 = 256 leaves > 64: three tiers, 256/32 = 8 pods of 32 aggregation switches
//   (256), 32² = 1024 cores; leaf-agg 256 × 32 = 8192 edges, agg-core 256 × 32 = 8192.
#include <map>

#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
struct Counts {
  int devices = 0, nvswitches = 0, network_switches = 0;
  int scale_up_edges = 0, scale_out_edges = 0;
};
Counts count(const Topology& t) {
  Counts c;
  for (auto v : boost::make_iterator_range(boost::vertices(t.graph()))) {
    switch (t.graph()[v].kind) {
      case VertexKind::device: ++c.devices; break;
      case VertexKind::switch_chip: ++c.nvswitches; break;
      case VertexKind::network_switch: ++c.network_switches; break;
      default: break;
    }
  }
  for (auto e : boost::make_iterator_range(boost::edges(t.graph())))
    ++(t.graph()[e].scale == LinkScale::scale_up ? c.scale_up_edges : c.scale_out_edges);
  return c;
}
}  // namespace

TEST_CASE("cluster topology: h100_cluster of 128 nodes is a two-tier fat tree of 32 leaves and 32 spines") {
  SystemSpec s = system_spec("h100_cluster");
  REQUIRE(s.nodes == 128);
  Topology t = build_topology(s);
  Counts c = count(t);
  CHECK(c.devices == 1024);
  CHECK(c.nvswitches == 512);
  CHECK(c.network_switches == 32 + 32);
  CHECK(c.scale_up_edges == 4096);
  CHECK(c.scale_out_edges == 1024 + 32 * 32);
  CHECK(boost::num_vertices(t.graph()) == 1600);
  // A leaf: one rail of 32 nodes (32 GPUs) down and the 32 spines up; a spine: the 32 leaves.
  int leaves = 0, spines = 0;
  for (auto v : boost::make_iterator_range(boost::vertices(t.graph()))) {
    if (t.graph()[v].kind != VertexKind::network_switch) continue;
    auto degree = boost::out_degree(v, t.graph());
    leaves += degree == 64;
    spines += degree == 32;
  }
  CHECK(leaves == 32);
  CHECK(spines == 32);
}

TEST_CASE("cluster topology: h100_cluster of 1024 nodes needs a third tier") {
  Topology t = build_topology(system_spec("h100_cluster", {"system.nodes=1024"}));
  Counts c = count(t);
  CHECK(c.devices == 8192);
  CHECK(c.network_switches == 256 + 256 + 1024);  // leaves + aggregation + core
  CHECK(c.scale_out_edges == 8192 + 8192 + 8192);  // NICs, leaf-agg, agg-core
}

TEST_CASE("cluster topology: a single leaf needs no spine") {
  // 2 nodes, rail-optimised: 8 rails × ceil(2/32) = 8 leaves ≤ 64 → 32 spines; with
  // rail_optimised = false one leaf serves both nodes' NICs and there is no spine.
  Counts rails = count(build_topology(system_spec("h100_cluster", {"system.nodes=2"})));
  CHECK(rails.network_switches == 8 + 32);
  Counts flat = count(build_topology(system_spec("h100_cluster", {"system.nodes=2", "scale_out.rail_optimised=false"})));
  CHECK(flat.network_switches == 1);
  CHECK(flat.scale_out_edges == 2);  // each node's hub (its first NVSwitch) to the leaf, 8 NICs bundled
}
