#include "models/cluster/routing.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <unordered_map>

#include "sim/error.h"

namespace hwsim {
namespace {

using Dist = std::unordered_map<TopoVertexId, int>;

// Expands one breadth-first level of `frontier`; returns the vertices new to `dist`.
std::vector<TopoVertexId> expand(const TopoGraph& g, const std::vector<TopoVertexId>& frontier, Dist& dist) {
  std::vector<TopoVertexId> next;
  for (TopoVertexId u : frontier) {
    int du = dist[u];
    for (auto [e, end] = boost::out_edges(u, g); e != end; ++e) {
      TopoVertexId w = boost::target(*e, g);
      if (dist.emplace(w, du + 1).second) next.push_back(w);
    }
  }
  return next;
}

// Marks, level by level towards the search's root, the vertices of `dist` that lie on a shortest
// path: those with a neighbour one level farther from the root that is on one.
void mark_towards_root(const TopoGraph& g, const Dist& dist, int depth, std::unordered_map<TopoVertexId, bool>& on) {
  std::vector<std::vector<TopoVertexId>> levels(std::size_t(depth + 1));
  for (const auto& [v, d] : dist) if (d <= depth) levels[std::size_t(d)].push_back(v);
  for (int d = depth - 1; d >= 0; --d)
    for (TopoVertexId v : levels[std::size_t(d)]) {
      if (on.count(v)) continue;
      for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
        TopoVertexId w = boost::target(*e, g);
        auto it = dist.find(w);
        if (it != dist.end() && it->second == d + 1 && on.count(w)) { on[v] = true; break; }
      }
    }
}

}  // namespace

Route route(const Topology& t, std::int64_t from, std::int64_t to) {
  const TopoGraph& g = t.graph();
  TopoVertexId s = t.device_vertex(from), d = t.device_vertex(to);
  Dist ds{{s, 0}}, dt{{d, 0}};
  std::vector<TopoVertexId> fs{s}, ft{d};
  int ks = 0, kt = 0;
  std::unordered_map<TopoVertexId, bool> on;
  while (on.empty()) {
    if (fs.empty() || ft.empty())
      config_error(fmt::format("{}: device {} cannot reach device {}: no links join them", t.source(), from, to));
    bool grow_source = fs.size() <= ft.size();
    Dist& mine = grow_source ? ds : dt;
    const Dist& other = grow_source ? dt : ds;
    auto next = expand(g, grow_source ? fs : ft, mine);
    (grow_source ? fs : ft) = next;
    ++(grow_source ? ks : kt);
    for (TopoVertexId w : next) if (other.count(w)) on[w] = true;
  }
  const int length = ks + kt;
  mark_towards_root(g, ds, ks, on);
  mark_towards_root(g, dt, kt, on);
  // Position of an on-path vertex along the path: ds, or length − dt on the target's side.
  auto position = [&](TopoVertexId v) {
    auto a = ds.find(v);
    if (a != ds.end() && a->second <= ks) return a->second;
    return length - dt.at(v);
  };
  std::vector<std::vector<TopoVertexId>> layer(std::size_t(length + 1));
  for (const auto& [v, yes] : on) layer[std::size_t(position(v))].push_back(v);
  for (auto& l : layer) std::sort(l.begin(), l.end());

  Route r;
  r.hops = length;
  std::map<std::int64_t, double> weight;  // resource → bytes per byte sent (ordered: deterministic)
  std::unordered_map<TopoVertexId, double> share{{s, 1.0}};
  bool first_path = true;
  for (int p = 0; p < length; ++p) {
    bool path_step = false;
    for (TopoVertexId v : layer[std::size_t(p)]) {
      double w = share[v];
      if (w == 0) continue;
      double total = 0;
      std::vector<std::pair<TopoGraph::edge_descriptor, TopoVertexId>> next;
      for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
        TopoVertexId x = boost::target(*e, g);
        if (on.count(x) && position(x) == p + 1) next.emplace_back(*e, x), total += g[*e].bandwidth;
      }
      for (const auto& [e, x] : next) {
        double part = w * g[e].bandwidth / total;
        weight[t.edge_resource(e, v)] += part;
        share[x] += part;
        r.energy_per_byte += part * g[e].energy_per_byte;
        r.crosses_network |= g[e].scale == LinkScale::scale_out;
        if (std::int64_t vr = t.vertex_resource(x); vr >= 0 && x != d) weight[vr] += part * g[x].transit_weight;
      }
      if (first_path && !path_step && !next.empty()) r.latency += g[next.front().first].latency, path_step = true;
    }
  }
  r.bandwidth = std::numeric_limits<double>::infinity();
  for (const auto& [res, w] : weight) {
    r.demands.push_back({ResourceId(res), w});
    r.bandwidth = std::min(r.bandwidth, t.resource_capacity(res) / w);
  }
  return r;
}

}  // namespace hwsim
