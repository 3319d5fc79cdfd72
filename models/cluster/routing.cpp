#include "models/cluster/routing.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

#include "sim/error.h"

namespace hwsim {
namespace {

// Per-vertex state of one search, in flat arrays reused between routes of the same thread: a
// vertex's entries are valid only when its stamp is the current search's, so nothing is cleared.
struct Scratch {
  std::vector<std::uint32_t> stamp_s, stamp_t, stamp_on;
  std::vector<int> ds, dt;            // distance from the source / the target
  std::vector<double> share, total;   // bytes per byte sent through a vertex; next-hop bandwidth
  std::uint32_t epoch = 0;

  void begin(std::size_t vertices) {
    if (stamp_s.size() < vertices) {
      for (auto* v : {&stamp_s, &stamp_t, &stamp_on}) v->assign(vertices, 0);
      ds.assign(vertices, 0), dt.assign(vertices, 0), share.assign(vertices, 0), total.assign(vertices, 0);
      epoch = 0;
    }
    ++epoch;
  }
  bool seen_s(TopoVertexId v) const { return stamp_s[v] == epoch; }
  bool seen_t(TopoVertexId v) const { return stamp_t[v] == epoch; }
  bool on(TopoVertexId v) const { return stamp_on[v] == epoch; }
};

thread_local Scratch scratch;

// One side of the bidirectional search: its distances and stamps, and every vertex it reached in
// breadth-first order (so by distance).
struct Side {
  std::vector<std::uint32_t>& stamp;
  std::vector<int>& dist;
  std::vector<TopoVertexId> visited, frontier;
  int depth = 0;
};

std::size_t degree_sum(const TopoGraph& g, const std::vector<TopoVertexId>& vs) {
  std::size_t sum = 0;
  for (TopoVertexId v : vs) sum += boost::out_degree(v, g);
  return sum;
}

// Expands one breadth-first level of the side's frontier.
void expand(const TopoGraph& g, Side& side) {
  std::vector<TopoVertexId> next;
  for (TopoVertexId u : side.frontier)
    for (auto [e, end] = boost::out_edges(u, g); e != end; ++e) {
      TopoVertexId w = boost::target(*e, g);
      if (side.stamp[w] == scratch.epoch) continue;
      side.stamp[w] = scratch.epoch, side.dist[w] = side.depth + 1;
      next.push_back(w), side.visited.push_back(w);
    }
  side.frontier = std::move(next);
  ++side.depth;
}

// Marks, level by level towards the side's root, the vertices on a shortest path: those with an
// on-path neighbour one level farther. Each level pair is scanned from its side with fewer edges
// (a fat tree's core switches have one port per pod; the aggregation switches far fewer).
void mark_towards_root(const TopoGraph& g, const Side& side) {
  std::vector<std::vector<TopoVertexId>> level(std::size_t(side.depth + 1));
  for (TopoVertexId v : side.visited) level[std::size_t(side.dist[v])].push_back(v);
  for (int d = side.depth - 1; d >= 0; --d) {
    std::vector<TopoVertexId> far;
    for (TopoVertexId w : level[std::size_t(d + 1)]) if (scratch.on(w)) far.push_back(w);
    const auto& near = level[std::size_t(d)];
    if (degree_sum(g, far) < degree_sum(g, near)) {
      for (TopoVertexId w : far)
        for (auto [e, end] = boost::out_edges(w, g); e != end; ++e) {
          TopoVertexId v = boost::target(*e, g);
          if (side.stamp[v] == scratch.epoch && side.dist[v] == d) scratch.stamp_on[v] = scratch.epoch;
        }
    } else {
      for (TopoVertexId v : near)
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
          TopoVertexId w = boost::target(*e, g);
          if (scratch.on(w) && side.stamp[w] == scratch.epoch && side.dist[w] == d + 1) {
            scratch.stamp_on[v] = scratch.epoch;
            break;
          }
        }
    }
  }
}

struct Hop {
  TopoVertexId from, to;
  TopoGraph::edge_descriptor edge;
};

}  // namespace

Route route(const Topology& t, std::int64_t from, std::int64_t to) {
  if (from == to) return Route{};
  const TopoGraph& g = t.graph();
  scratch.begin(boost::num_vertices(g));
  TopoVertexId s = t.device_vertex(from), d = t.device_vertex(to);
  Side src{scratch.stamp_s, scratch.ds, {s}, {s}}, dst{scratch.stamp_t, scratch.dt, {d}, {d}};
  scratch.stamp_s[s] = scratch.epoch, scratch.ds[s] = 0;
  scratch.stamp_t[d] = scratch.epoch, scratch.dt[d] = 0;
  bool met = false;
  while (!met) {
    if (src.frontier.empty() || dst.frontier.empty())
      config_error(fmt::format("{}: device {} cannot reach device {}: no links join them", t.source(), from, to));
    Side& grow = src.frontier.size() <= dst.frontier.size() ? src : dst;
    Side& other = &grow == &src ? dst : src;
    expand(g, grow);
    for (TopoVertexId w : grow.frontier)
      if (other.stamp[w] == scratch.epoch) scratch.stamp_on[w] = scratch.epoch, met = true;
  }
  const int length = src.depth + dst.depth;
  mark_towards_root(g, src);
  mark_towards_root(g, dst);
  // Position of an on-path vertex along the path: its distance from the source, or length minus
  // its distance to the target on the target's side.
  auto position = [&](TopoVertexId v) {
    return scratch.seen_s(v) && scratch.ds[v] <= src.depth ? scratch.ds[v] : length - scratch.dt[v];
  };
  std::vector<std::vector<TopoVertexId>> layer(std::size_t(length + 1));
  for (const Side* side : {&src, &dst})
    for (TopoVertexId v : side->visited)
      if (scratch.on(v) && (side == &src || !scratch.seen_s(v) || scratch.ds[v] > src.depth))
        layer[std::size_t(position(v))].push_back(v);
  for (auto& l : layer) {
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    for (TopoVertexId v : l) scratch.share[v] = 0, scratch.total[v] = 0;
  }
  scratch.share[s] = 1.0;

  Route r;
  r.hops = length;
  std::vector<FlowDemand> demands;  // merged and sorted below (deterministic)
  for (int p = 0; p < length; ++p) {
    // The links from layer p to layer p + 1, found from the side with fewer edges.
    const auto& near = layer[std::size_t(p)];
    const auto& far = layer[std::size_t(p + 1)];
    std::vector<Hop> hops;
    auto at = [&](TopoVertexId v, int q) { return scratch.on(v) && position(v) == q; };
    if (degree_sum(g, near) <= degree_sum(g, far)) {
      for (TopoVertexId v : near)
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e)
          if (at(boost::target(*e, g), p + 1)) hops.push_back({v, boost::target(*e, g), *e});
    } else {
      for (TopoVertexId x : far)
        for (auto [e, end] = boost::out_edges(x, g); e != end; ++e)
          if (at(boost::target(*e, g), p)) hops.push_back({boost::target(*e, g), x, *e});
      std::stable_sort(hops.begin(), hops.end(), [](const Hop& a, const Hop& b) { return a.from < b.from; });
    }
    for (const Hop& h : hops) scratch.total[h.from] += g[h.edge].bandwidth;
    for (const Hop& h : hops) {
      double part = scratch.share[h.from] * g[h.edge].bandwidth / scratch.total[h.from];
      if (part == 0) continue;
      demands.push_back({ResourceId(t.edge_resource(h.edge, h.from)), part});
      scratch.share[h.to] += part;
      r.energy_per_byte += part * g[h.edge].energy_per_byte;
      r.crosses_network |= g[h.edge].scale == LinkScale::scale_out;
      if (std::int64_t vr = t.vertex_resource(h.to); vr >= 0 && h.to != d)
        demands.push_back({ResourceId(vr), part * g[h.to].transit_weight});
    }
    if (!hops.empty()) r.latency += g[hops.front().edge].latency;
  }
  std::sort(demands.begin(), demands.end(), [](const FlowDemand& a, const FlowDemand& b) { return a.resource < b.resource; });
  r.bandwidth = std::numeric_limits<double>::infinity();
  for (const auto& dm : demands) {
    if (!r.demands.empty() && r.demands.back().resource == dm.resource) r.demands.back().weight += dm.weight;
    else r.demands.push_back(dm);
  }
  for (const auto& dm : r.demands) r.bandwidth = std::min(r.bandwidth, t.resource_capacity(dm.resource) / dm.weight);
  return r;
}

}  // namespace hwsim
