#include "models/cluster/topology.h"

#include <fmt/format.h>

namespace hwsim {

TopoVertexId Topology::add_vertex(TopoVertex v) {
  v.resource = v.capacity > 0 ? std::int64_t(vertex_resources_.size()) : -1;
  TopoVertexId id = boost::add_vertex(v, graph_);
  if (v.kind == VertexKind::device) device_vertex_.push_back(id);
  if (v.capacity > 0) vertex_resources_.push_back(id);
  return id;
}

void Topology::add_link(TopoVertexId a, TopoVertexId b, double links, double bandwidth_per_link, double latency,
                        double energy_per_byte, LinkScale scale) {
  TopoEdge e;
  e.id = next_edge_++;
  e.a = a;
  e.scale = scale;
  e.links = links;
  e.bandwidth = links * bandwidth_per_link;
  e.latency = latency;
  e.energy_per_byte = energy_per_byte;
  edge_list_.push_back(boost::add_edge(a, b, e, graph_).first);
}

double Topology::resource_capacity(std::int64_t r) const {
  if (r < 2 * next_edge_) return edge_of(r).bandwidth;
  return graph_[vertex_resources_[std::size_t(r - 2 * next_edge_)]].capacity;
}

std::string Topology::vertex_name(TopoVertexId v) const {
  const TopoVertex& x = graph_[v];
  switch (x.kind) {
    case VertexKind::device: return fmt::format("dev{}", x.device);
    case VertexKind::switch_chip: return fmt::format("node{}.switch{}", x.node, v);
    case VertexKind::host_bridge: return fmt::format("node{}.host", x.node);
    case VertexKind::network_switch: return fmt::format("netsw{}", v);
  }
  return "?";
}

std::string Topology::resource_name(std::int64_t r) const {
  if (r >= 2 * next_edge_) return vertex_name(vertex_resources_[std::size_t(r - 2 * next_edge_)]);
  const auto& e = edge_list_[std::size_t(r / 2)];
  TopoVertexId from = graph_[e].a, to = boost::source(e, graph_) == from ? boost::target(e, graph_) : boost::source(e, graph_);
  if (r % 2) std::swap(from, to);
  return vertex_name(from) + "→" + vertex_name(to);
}

}  // namespace hwsim
