// Scale-up topologies of the shipped systems, counted by hand from their files:
// - dgx_h100: 8 GPUs + 4 NVSwitch chips = 12 vertices; each GPU's 18 links spread 5,5,4,4 over
//   the 4 chips (the remainder on the first ones): 8 × 4 = 32 edges, 64 link directions.
// - a100x2_nvlink: all_to_all, 12 links to the one peer: 1 edge of 12 × 25 GB/s.
// - rtx4090x2_pcie: 2 GPUs + 1 host bridge (83 GB/s, crossed twice: no P2P), 2 edges of x16.
// - tpu_v5e_16x16: 256 chips, each linked to its +1 neighbour in both dimensions (wraparound):
//   512 edges of 4 / (2·2) = 1 link. tpu_v5p_4x4x8: 128 chips, 3 × 128 = 384 edges.
#include <map>

#include "tests/unit/u8_system_support.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
std::map<VertexKind, int> vertex_kinds(const Topology& t) {
  std::map<VertexKind, int> n;
  for (auto v : boost::make_iterator_range(boost::vertices(t.graph()))) ++n[t.graph()[v].kind];
  return n;
}
}  // namespace

TEST_CASE("cluster topology: dgx_h100 is 8 GPUs and 4 NVSwitch chips joined by 32 bundles of 5,5,4,4 links") {
  SystemSpec s = system_spec("dgx_h100");
  Topology t = build_topology(s);
  CHECK(boost::num_vertices(t.graph()) == 12);
  auto kinds = vertex_kinds(t);
  CHECK(kinds[VertexKind::device] == 8);
  CHECK(kinds[VertexKind::switch_chip] == 4);
  CHECK(t.devices() == 8);
  CHECK(t.edges() == 32);
  CHECK(boost::num_edges(t.graph()) == 32);
  CHECK(t.resources() == 64);  // two directions per edge, no vertex with a capacity
  for (std::int64_t d = 0; d < 8; ++d) {
    std::vector<double> links;
    double bandwidth = 0;
    for (auto e : boost::make_iterator_range(boost::out_edges(t.device_vertex(d), t.graph()))) {
      links.push_back(t.graph()[e].links);
      bandwidth += t.graph()[e].bandwidth;
      CHECK(t.graph()[e].bandwidth == doctest::Approx(t.graph()[e].links * 26.5625e9));
      CHECK(t.graph()[e].scale == LinkScale::scale_up);
    }
    CHECK(links == std::vector<double>{5, 5, 4, 4});
    CHECK(bandwidth == doctest::Approx(18 * 26.5625e9));  // 478.125 GB/s per direction
  }
}

TEST_CASE("cluster topology: all_to_all, PCIe and torus systems have the hand-counted vertices and edges") {
  Topology a100 = build_topology(system_spec("a100x2_nvlink"));
  CHECK(boost::num_vertices(a100.graph()) == 2);
  REQUIRE(a100.edges() == 1);
  CHECK(a100.resource_capacity(0) == doctest::Approx(12 * 25e9));

  Topology pcie = build_topology(system_spec("rtx4090x2_pcie"));
  CHECK(boost::num_vertices(pcie.graph()) == 3);
  CHECK(vertex_kinds(pcie)[VertexKind::host_bridge] == 1);
  CHECK(pcie.edges() == 2);
  REQUIRE(pcie.resources() == 5);                            // 2 edges × 2 directions + the bridge
  CHECK(pcie.resource_capacity(0) == doctest::Approx(16 * 1.97e9));  // x16
  CHECK(pcie.resource_capacity(4) == doctest::Approx(83e9));
  for (auto v : boost::make_iterator_range(boost::vertices(pcie.graph())))
    if (pcie.graph()[v].kind == VertexKind::host_bridge) CHECK(pcie.graph()[v].transit_weight == 2);

  Topology v5e = build_topology(system_spec("tpu_v5e_16x16"));
  CHECK(v5e.devices() == 256);
  CHECK(boost::num_vertices(v5e.graph()) == 256);
  CHECK(v5e.edges() == 512);
  for (auto v : boost::make_iterator_range(boost::vertices(v5e.graph())))
    CHECK(boost::out_degree(v, v5e.graph()) == 4);  // 4 neighbours, wraparound included
  CHECK(v5e.resource_capacity(0) == doctest::Approx(50e9));  // 1 link per neighbour

  Topology v5p = build_topology(system_spec("tpu_v5p_4x4x8"));
  CHECK(v5p.devices() == 128);
  CHECK(v5p.edges() == 384);
}

TEST_CASE("cluster topology: a torus without wraparound drops the edges that close each ring") {
  // 16x16 without wraparound: per dimension 16 rows of 15 edges = 240; two dimensions 480.
  Topology t = build_topology(system_spec("tpu_v5e_16x16", {"scale_up.wraparound=false"}));
  CHECK(t.edges() == 480);
}
