#pragma once
// A system as a graph (Boost.Graph): devices, switches and host bridges joined by links. An edge is
// a bundle of parallel links between two vertices (its bandwidth is theirs added); each direction
// of an edge is one resource of the flow network, so transfers that share a link direction share
// its bandwidth. A vertex may have a capacity of its own (a PCIe host bridge), crossed by every
// route through it. Built by build_topology (topology_builder.cpp); routes by route() (routing.h).
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

enum class VertexKind { device, switch_chip, host_bridge, network_switch };

struct TopoVertex {
  VertexKind kind = VertexKind::device;
  std::int64_t node = -1;       // server it belongs to (-1: a network switch)
  std::int64_t device = -1;     // device index (devices only)
  double capacity = 0;          // bytes/s through the vertex; 0 = not a limit
  double transit_weight = 1;    // bytes crossing the vertex per byte routed through it
  std::int64_t resource = -1;   // index among vertices with a capacity (Topology::vertex_resource)
};

enum class LinkScale { scale_up, scale_out };

struct TopoEdge {
  std::int64_t id = 0;          // resources 2·id (from `a`) and 2·id + 1 (towards `a`)
  std::size_t a = 0;            // the endpoint the link was added from (an undirected graph's
                                // descriptors are oriented from whichever end they are reached by)
  LinkScale scale = LinkScale::scale_up;
  double links = 1;             // parallel links in the bundle
  double bandwidth = 0;         // bytes/s per direction, whole bundle
  double latency = 0;           // seconds per traversal
  double energy_per_byte = 0;
};

using TopoGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, TopoVertex, TopoEdge>;
using TopoVertexId = TopoGraph::vertex_descriptor;

class Topology {
 public:
  // Movable, not copyable: it keeps edge descriptors into its own graph.
  Topology() = default;
  Topology(Topology&&) = default;
  Topology& operator=(Topology&&) = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  TopoVertexId add_vertex(TopoVertex v);
  // Joins a and b by `links` parallel links of `bandwidth_per_link` each (per direction).
  void add_link(TopoVertexId a, TopoVertexId b, double links, double bandwidth_per_link, double latency,
                double energy_per_byte, LinkScale scale);

  const TopoGraph& graph() const { return graph_; }
  std::int64_t devices() const { return std::int64_t(device_vertex_.size()); }
  TopoVertexId device_vertex(std::int64_t device) const { return device_vertex_[std::size_t(device)]; }
  std::int64_t edges() const { return next_edge_; }
  // Resources: 2 per edge, then one per vertex with a capacity.
  std::int64_t resources() const { return 2 * next_edge_ + std::int64_t(vertex_resources_.size()); }
  // Capacity of resource r (bytes/s) and a name for reports ("dev3→sw0", "host0").
  double resource_capacity(std::int64_t r) const;
  std::string resource_name(std::int64_t r) const;
  // The edge behind resource r (r < 2·edges()).
  const TopoEdge& edge_of(std::int64_t r) const { return graph_[edge_list_[std::size_t(r / 2)]]; }
  std::string vertex_name(TopoVertexId v) const;
  // The system file it came from, for error lines.
  const std::string& source() const { return source_; }
  void set_source(std::string path) { source_ = std::move(path); }
  // The resource of a vertex with a capacity, else -1.
  std::int64_t vertex_resource(TopoVertexId v) const {
    return graph_[v].resource < 0 ? -1 : 2 * next_edge_ + graph_[v].resource;
  }
  // The resource of edge e crossed from vertex `from`.
  std::int64_t edge_resource(const TopoGraph::edge_descriptor& e, TopoVertexId from) const {
    return 2 * graph_[e].id + (graph_[e].a == from ? 0 : 1);
  }

 private:
  TopoGraph graph_;
  std::vector<TopoVertexId> device_vertex_;
  std::vector<TopoGraph::edge_descriptor> edge_list_;
  std::vector<TopoVertexId> vertex_resources_;
  std::int64_t next_edge_ = 0;
  std::string source_ = "system";
};

struct SystemSpec;

// The graph a system file describes: devices numbered node by node (device = node · devices_per_node
// + local index; a torus row-major), switches, host bridges, the network.
Topology build_topology(const SystemSpec& spec);

}  // namespace hwsim
