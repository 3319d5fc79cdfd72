// build_topology(): the graph of a system file. Scale-up joins the devices of each node; scale-out
// joins nodes through a k-ary fat tree (two tiers while the leaves fit one spine layer, three
// above). Every parallel link of the hardware is in an edge's bundle, so bandwidths add up.
#include <fmt/format.h>

#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "sim/arith.h"
#include "sim/error.h"

namespace hwsim {
namespace {

struct Builder {
  const SystemSpec& s;
  Topology& t;

  void up_link(TopoVertexId a, TopoVertexId b, double links) {
    t.add_link(a, b, links, s.scale_up.bandwidth, s.scale_up.latency, s.scale_up.energy_per_byte, LinkScale::scale_up);
  }
  void out_link(TopoVertexId a, TopoVertexId b, double links) {
    t.add_link(a, b, links, s.scale_out.bandwidth, s.scale_out.latency, s.scale_out.energy_per_byte,
               LinkScale::scale_out);
  }
  TopoVertexId device(std::int64_t node, std::int64_t local) const {
    return t.device_vertex(node * s.devices_per_node + local);
  }

  // Each device's links spread over the node's switch chips (the remainder on the first ones).
  TopoVertexId switches(std::int64_t node) {
    std::vector<TopoVertexId> sw;
    for (std::int64_t i = 0; i < s.switches; ++i) sw.push_back(t.add_vertex({VertexKind::switch_chip, node}));
    for (std::int64_t d = 0; d < s.devices_per_node; ++d)
      for (std::int64_t i = 0; i < s.switches; ++i) {
        std::int64_t links = s.links / s.switches + (i < s.links % s.switches ? 1 : 0);
        if (links > 0) up_link(device(node, d), sw[std::size_t(i)], double(links));
      }
    return sw.front();
  }

  void all_to_all(std::int64_t node) {
    std::int64_t peers = s.devices_per_node - 1;
    if (peers == 0) return;
    if (s.links < peers)
      config_error(fmt::format("{}: scale_up.links: {} links per device cannot join each of its {} peers "
                               "(all_to_all needs at least one link per peer)", s.path, s.links, peers));
    for (std::int64_t a = 0; a < s.devices_per_node; ++a)
      for (std::int64_t b = a + 1; b < s.devices_per_node; ++b) up_link(device(node, a), device(node, b), double(s.links / peers));
  }

  TopoVertexId pcie(std::int64_t node) {
    TopoVertex host{VertexKind::host_bridge, node};
    host.capacity = s.host_bandwidth;
    host.transit_weight = s.p2p ? 1 : 2;  // staged: written to host memory, then read back
    TopoVertexId h = t.add_vertex(host);
    for (std::int64_t d = 0; d < s.devices_per_node; ++d) up_link(device(node, d), h, double(s.links));
    return h;
  }

  // Each chip links to its +1 neighbour in every dimension longer than 1 (the last back to the
  // first with wraparound); the links of a chip are shared by its 2·dims neighbour directions.
  void torus(std::int64_t node) {
    std::int64_t dims = 0;
    for (auto d : s.torus) dims += d > 1;
    if (dims == 0) return;
    double links = double(s.links) / double(2 * dims);
    if (links < 1)
      config_error(fmt::format("{}: scale_up.links: {} links per chip cannot reach its {} torus neighbours",
                               s.path, s.links, 2 * dims));
    std::int64_t stride = 1;
    for (std::size_t k = s.torus.size(); k-- > 0;) {
      std::int64_t n = s.torus[k];
      for (std::int64_t i = 0; n > 1 && i < s.devices_per_node; ++i) {
        std::int64_t coord = (i / stride) % n;
        if (coord + 1 < n) up_link(device(node, i), device(node, i + stride), links);
        else if (s.wraparound && n > 2) up_link(device(node, i), device(node, i - coord * stride), links);
        else if (s.wraparound) up_link(device(node, i), device(node, i - stride), links);  // 2 chips: a second link
      }
      stride *= n;
    }
  }

  // The vertex a node's shared NICs hang off (no per-device rails).
  TopoVertexId node_hub(std::int64_t node, TopoVertexId hub) const { return hub == TopoVertexId(-1) ? device(node, 0) : hub; }

  void network(const std::vector<TopoVertexId>& hubs);
};

// Leaves take radix/2 endpoints each. One leaf in all: no spine. Up to `radix` leaves: a spine
// layer of radix/2 switches, each leaf linked to every spine. More: pods of radix/2 leaves with
// radix/2 aggregation switches each, and (radix/2)² core switches (agg j of every pod to cores
// j·radix/2 … j·radix/2 + radix/2 − 1; a core then has one port per pod).
void Builder::network(const std::vector<TopoVertexId>& hubs) {
  bool rails = s.rail_optimised && s.nics == s.devices_per_node;
  std::int64_t planes = rails ? s.nics : 1, down = std::max<std::int64_t>(1, s.switch_radix / 2);
  double nic_links = rails ? 1.0 : double(s.nics);
  std::int64_t per_plane = ceil_div(s.nodes, down), leaves_total = planes * per_plane;
  if (leaves_total == 1) down = s.nodes;
  std::vector<TopoVertexId> leaves;
  for (std::int64_t i = 0; i < leaves_total; ++i) leaves.push_back(t.add_vertex({VertexKind::network_switch}));
  for (std::int64_t n = 0; n < s.nodes; ++n)
    for (std::int64_t p = 0; p < planes; ++p) {
      TopoVertexId from = rails ? device(n, p) : node_hub(n, hubs[std::size_t(n)]);
      out_link(from, leaves[std::size_t(p * per_plane + n / down)], nic_links);
    }
  if (leaves_total == 1) return;
  std::int64_t half = std::max<std::int64_t>(1, s.switch_radix / 2);
  if (leaves_total <= s.switch_radix) {
    std::vector<TopoVertexId> spines;
    for (std::int64_t i = 0; i < half; ++i) spines.push_back(t.add_vertex({VertexKind::network_switch}));
    for (auto leaf : leaves)
      for (auto spine : spines) out_link(leaf, spine, 1);
    return;
  }
  std::int64_t pods = ceil_div(leaves_total, half);
  std::vector<TopoVertexId> cores;
  for (std::int64_t i = 0; i < half * half; ++i) cores.push_back(t.add_vertex({VertexKind::network_switch}));
  for (std::int64_t p = 0; p < pods; ++p) {
    std::vector<TopoVertexId> aggs;
    for (std::int64_t j = 0; j < half; ++j) aggs.push_back(t.add_vertex({VertexKind::network_switch}));
    for (std::int64_t l = p * half; l < std::min(leaves_total, (p + 1) * half); ++l)
      for (auto agg : aggs) out_link(leaves[std::size_t(l)], agg, 1);
    for (std::int64_t j = 0; j < half; ++j)
      for (std::int64_t c = 0; c < half; ++c) out_link(aggs[std::size_t(j)], cores[std::size_t(j * half + c)], 1);
  }
}

}  // namespace

Topology build_topology(const SystemSpec& s) {
  Topology t;
  t.set_source(s.path);
  for (std::int64_t n = 0; n < s.nodes; ++n)
    for (std::int64_t d = 0; d < s.devices_per_node; ++d) {
      TopoVertex v{VertexKind::device, n, n * s.devices_per_node + d};
      t.add_vertex(v);
    }
  Builder b{s, t};
  std::vector<TopoVertexId> hubs(std::size_t(s.nodes), TopoVertexId(-1));
  for (std::int64_t n = 0; n < s.nodes; ++n) {
    switch (s.topology) {
      case ScaleUpTopology::switch_fabric: hubs[std::size_t(n)] = b.switches(n); break;
      case ScaleUpTopology::all_to_all: b.all_to_all(n); break;
      case ScaleUpTopology::pcie: hubs[std::size_t(n)] = b.pcie(n); break;
      case ScaleUpTopology::torus: b.torus(n); break;
    }
  }
  if (s.network && s.nodes > 1) b.network(hubs);
  return t;
}

}  // namespace hwsim
