#include "models/cluster/collective_plan.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "models/cluster/fabric.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"

namespace hwsim {

std::string_view protocol_name(Protocol p) {
  constexpr std::string_view names[] = {"LL", "LL128", "Simple"};
  return names[int(p)];
}

namespace {

using Fill = std::function<void(std::int64_t, std::vector<Transfer>&)>;

// A plan in phases of identical rounds (a ring is one phase; hierarchical three), so the
// estimate costs one sample round per phase.
struct Phase {
  std::int64_t rounds = 0;
  std::int64_t first = 0;  // index of its first round
};

struct Draft {
  std::string algorithm;
  std::int64_t steps = 1;
  std::vector<Phase> phases;
  Fill fill;
  bool nvls = false;  // runs on the switches' reduction (NVLS): Simple only, its own efficiency and latency
};

std::int64_t group_size(const RankGroups& g) { return std::int64_t(g.front().size()); }

// The most transfers one collective may simulate (each a flow and, for a new pair, a route): a
// ring over a million ranks or an all-to-all over a thousand is refused with this bound rather
// than exhausting memory.
constexpr double kMaxTransfers = 2e7, kMaxTransfersPerRound = 3e5;

[[noreturn]] void too_many_transfers(const CollectiveOp& op, const std::string& algorithm) {
  workload_error(fmt::format("{} of {} ranks with algo={}: too many transfers to simulate (at most {:.0f} in a "
                             "round and {:.0f} in all; fewer ranks, or another algorithm)",
                             collective_name(op.kind), op.ranks, algorithm, kMaxTransfersPerRound, kMaxTransfers));
}

// Ranks of a group per node, node-major (hierarchical needs the same count on every node).
std::vector<std::vector<std::int64_t>> by_node(const std::vector<std::int64_t>& g, std::int64_t per_node) {
  std::vector<std::vector<std::int64_t>> nodes;
  for (std::int64_t d : g) {
    if (nodes.empty() || nodes.back().front() / per_node != d / per_node) nodes.emplace_back();
    nodes.back().push_back(d);
  }
  return nodes;
}

// The channels a ring runs on, each a ring order of every group. Within a node one ring is
// enough: every channel takes the same links. Across nodes NCCL spreads its channels over the
// node's NICs (rails): channel c enters each node at its rank c and leaves it from rank c - 1
// (each node's ranks rotated by c), so each NIC sends one channel's crossing and receives
// another's, and every rail carries 1/C of the data. C = the NICs per node, at most the fewest
// ranks a node holds.
RankGroups ring_channels(const RankGroups& groups, const SystemSpec& s) {
  std::vector<std::vector<std::vector<std::int64_t>>> nodes;
  std::int64_t channels = s.network ? s.nics : 1;
  for (const auto& g : groups) {
    nodes.push_back(by_node(g, s.devices_per_node));
    if (nodes.back().size() < 2) channels = 1;
    for (const auto& n : nodes.back()) channels = std::min(channels, std::int64_t(n.size()));
  }
  if (channels <= 1) return groups;
  RankGroups rings;
  for (std::int64_t c = 0; c < channels; ++c)
    for (const auto& g : nodes) {
      rings.emplace_back();
      for (const auto& n : g)
        for (std::size_t i = 0; i < n.size(); ++i) rings.back().push_back(n[(i + std::size_t(c)) % n.size()]);
    }
  return rings;
}

void ring_round(const RankGroups& rings, double bytes, std::vector<Transfer>& out) {
  for (const auto& g : rings)
    for (std::size_t i = 0; i < g.size(); ++i) out.push_back({g[i], g[(i + 1) % g.size()], bytes});
}

Draft ring(const CollectiveOp& op, const RankGroups& groups, const SystemSpec& s) {
  std::int64_t n = group_size(groups);
  RankGroups rings = ring_channels(groups, s);
  double share = double(groups.size()) / double(rings.size());  // of the data, per channel
  double chunk = op.bytes / double(n) * share;
  if (op.kind == CollectiveKind::broadcast) {
    for (std::size_t k = 0; k < rings.size(); ++k) {  // each chain starts at its group's root
      auto& g = rings[k];
      std::rotate(g.begin(), std::find(g.begin(), g.end(), groups[k % groups.size()].front()), g.end());
    }
    return {"ring", n - 1, {{1, 0}}, [rings, b = op.bytes * share](std::int64_t, std::vector<Transfer>& out) {
              for (const auto& g : rings)
                for (std::size_t i = 0; i + 1 < g.size(); ++i) out.push_back({g[i], g[i + 1], b});
            }};
  }
  std::int64_t rounds = op.kind == CollectiveKind::all_reduce ? 2 * (n - 1) : n - 1;
  return {"ring", 1, {{rounds, 0}}, [rings, chunk](std::int64_t, std::vector<Transfer>& out) {
            ring_round(rings, chunk, out);
          }};
}

// NCCL's double binary tree: two complementary trees, each carrying half the data up (reduce)
// and down (broadcast), pipelined: every tree edge busy in both directions at once.
Draft tree(const CollectiveOp& op, const RankGroups& groups) {
  std::int64_t n = group_size(groups);
  std::int64_t depth = std::int64_t(std::ceil(std::log2(double(n))));
  return {"tree", 2 * depth, {{1, 0}}, [&groups, half = op.bytes / 2](std::int64_t, std::vector<Transfer>& out) {
            for (const auto& g : groups) {
              std::size_t m = g.size();
              for (std::size_t i = 1; i < m; ++i) {
                std::size_t p = (i - 1) / 2;
                out.push_back({g[i], g[p], half});
                out.push_back({g[p], g[i], half});
                out.push_back({g[m - 1 - i], g[m - 1 - p], half});
                out.push_back({g[m - 1 - p], g[m - 1 - i], half});
              }
            }
          }};
}

// Every rank to every other at once: all_reduce as a reduce-scatter then an all-gather exchange.
Draft direct(const CollectiveOp& op, const RankGroups& groups) {
  std::int64_t n = group_size(groups);
  // A round holds every (sender, receiver) pair of every group: refused before any is made
  // (100,000 ranks are 10^10 pairs, which ended in bad_alloc before check_size saw them).
  double pairs = 0;
  for (const auto& g : groups) pairs += double(g.size()) * double(g.size() > 0 ? g.size() - 1 : 0);
  if (pairs > kMaxTransfersPerRound) too_many_transfers(op, "direct");
  bool bcast = op.kind == CollectiveKind::broadcast;
  double bytes = bcast ? op.bytes : op.bytes / double(n);
  std::int64_t rounds = op.kind == CollectiveKind::all_reduce ? 2 : 1;
  return {"direct", 1, {{rounds, 0}}, [&groups, bytes, bcast](std::int64_t, std::vector<Transfer>& out) {
            for (const auto& g : groups)
              for (std::size_t i = 0; i < g.size(); ++i)
                for (std::size_t j = 0; j < g.size(); ++j)
                  if (i != j && (!bcast || i == 0)) out.push_back({g[i], g[j], bytes});
          }};
}

// NVLS all-reduce (collective_plan.h): each device's links carry S(n+1)/n each way, its kernels
// 2S/n; latency: the NVLS base latency alone (steps 0).
Draft nvls(const CollectiveOp& op, const RankGroups& groups) {
  double n = double(group_size(groups));
  double bytes = op.bytes * (n + 1) / (n * (n - 1)), share = 1 / (n + 1);
  return {"nvls", 0, {{1, 0}}, [groups, bytes, share](std::int64_t, std::vector<Transfer>& out) {
            for (const auto& g : groups)
              for (std::size_t i = 0; i < g.size(); ++i)
                for (std::size_t j = 0; j < g.size(); ++j)
                  if (i != j) out.push_back({g[i], g[j], bytes, share});
          }, true};
}

// send_recv: between 2 ranks, the first sends to the second (a pipeline send); among more, every
// rank sends to the next and receives from the one before, a ring of pairs (nccl-tests'
// sendrecv_perf).
Draft p2p(const CollectiveOp& op, const RankGroups& groups) {
  return {"p2p", 1, {{1, 0}}, [&groups, b = op.bytes](std::int64_t, std::vector<Transfer>& out) {
            for (const auto& g : groups)
              if (g.size() == 2) out.push_back({g[0], g[1], b});
              else ring_round({g}, b, out);
          }};
}

// Reduce-scatter inside each node, all-reduce across nodes between ranks of the same local index
// (over their rail), all-gather inside each node — pipelined over small chunks, as NCCL's
// multi-node algorithms run their intra- and inter-node parts: in the steady state all three
// stream at once, so it is one round whose latency counts every stage and whose links carry the
// three parts' bytes together (the node's ring edges: reduce-scatter's and all-gather's; the rails:
// the inter-node ring's).
Draft hierarchical(const CollectiveOp& op, const RankGroups& groups, const SystemSpec& s) {
  auto nodes0 = by_node(groups.front(), s.devices_per_node);
  std::int64_t local = std::int64_t(nodes0.front().size()), count = std::int64_t(nodes0.size());
  double piece = op.bytes / double(local);
  std::int64_t intra = local - 1, inter = 2 * (count - 1);
  auto fill = [&groups, &s, local, count, piece, intra, inter](std::int64_t, std::vector<Transfer>& out) {
    for (const auto& g : groups) {
      auto nodes = by_node(g, s.devices_per_node);
      if (intra > 0)
        for (const auto& node : nodes)
          for (std::int64_t i = 0; i < local; ++i)
            out.push_back({node[std::size_t(i)], node[std::size_t((i + 1) % local)], 2 * double(intra) * piece});
      for (std::int64_t i = 0; i < local; ++i)
        for (std::int64_t k = 0; k < count; ++k)
          out.push_back({nodes[std::size_t(k)][std::size_t(i)], nodes[std::size_t((k + 1) % count)][std::size_t(i)],
                         double(inter) * piece / double(count)});
    }
  };
  return {"hierarchical", 2 * intra + inter, {{1, 0}}, fill};
}

// All-reduce on a whole torus: the data in as many parts as the torus has dimensions (longer than
// 1), all parts at once; part p runs a bidirectional ring reduce-scatter (half its data each way)
// along dimension p, then p + 1, ... (its data shrinking by each dimension's length), then the
// all-gathers in reverse — so every dimension's links carry a part in every round (the
// multi-axis all-reduce of the JAX scaling book).
Draft torus(const CollectiveOp& op, const SystemSpec& s) {
  std::vector<std::size_t> dims;
  for (std::size_t k = 0; k < s.torus.size(); ++k)
    if (s.torus[k] > 1) dims.push_back(k);
  using Step = std::pair<std::size_t, double>;  // dimension, bytes each way
  std::vector<std::vector<Step>> part(dims.size());
  for (std::size_t p = 0; p < dims.size(); ++p) {
    double size = op.bytes / double(dims.size());
    for (std::size_t j = 0; j < dims.size(); ++j) {
      std::size_t k = dims[(p + j) % dims.size()];
      std::int64_t n = s.torus[k];
      for (std::int64_t r = 0; r + 1 < n; ++r) part[p].emplace_back(k, size / double(n) / 2);
      size /= double(n);
    }
    for (std::size_t i = part[p].size(); i-- > 0;) part[p].push_back(part[p][i]);
  }
  std::vector<std::vector<Step>> round(part.front().size());  // per round: every part's step
  for (std::size_t r = 0; r < round.size(); ++r)
    for (const auto& steps : part) round[r].push_back(steps[r]);
  std::vector<Phase> phases;
  for (std::size_t r = 0; r < round.size(); ++r) {
    if (r == 0 || round[r] != round[r - 1]) phases.push_back({0, std::int64_t(r)});
    ++phases.back().rounds;
  }
  auto fill = [&s, round](std::int64_t r, std::vector<Transfer>& out) {
    for (const auto& [k, bytes] : round[std::size_t(r)]) {
      std::int64_t stride = 1, n = s.torus[k];
      for (std::size_t j = s.torus.size(); j-- > k + 1;) stride *= s.torus[j];
      for (std::int64_t i = 0; i < s.devices(); ++i) {
        std::int64_t c = (i / stride) % n;
        out.push_back({i, i + ((c + 1) % n - c) * stride, bytes});
        out.push_back({i, i + ((c + n - 1) % n - c) * stride, bytes});
      }
    }
  };
  return {"torus", 1, phases, fill};
}

bool spans_nodes(const RankGroups& groups, const SystemSpec& s) {
  const auto& g = groups.front();
  return std::any_of(g.begin(), g.end(), [&](std::int64_t d) { return d / s.devices_per_node != g.front() / s.devices_per_node; });
}

bool even_per_node(const RankGroups& groups, const SystemSpec& s) {
  auto nodes = by_node(groups.front(), s.devices_per_node);
  for (const auto& n : nodes) if (n.size() != nodes.front().size()) return false;
  return nodes.size() > 1;
}

// Every rank of the groups has a direct link to every other: one node of an all_to_all scale-up.
bool fully_connected(const RankGroups& groups, const SystemSpec& s) {
  return s.topology == ScaleUpTopology::all_to_all && !spans_nodes(groups, s);
}

bool whole_torus(const RankGroups& groups, const SystemSpec& s) {
  if (s.topology != ScaleUpTopology::torus || s.nodes != 1 || groups.size() != 1) return false;
  const auto& g = groups.front();
  if (std::int64_t(g.size()) != s.devices()) return false;
  for (std::size_t i = 0; i < g.size(); ++i) if (g[i] != std::int64_t(i)) return false;
  return true;
}

Draft draft(const std::string& algo, const CollectiveOp& op, const RankGroups& groups, const SystemSpec& s) {
  if (algo == "ring") return ring(op, groups, s);
  if (algo == "tree") return tree(op, groups);
  if (algo == "direct") return direct(op, groups);
  if (algo == "hierarchical") return hierarchical(op, groups, s);
  if (algo == "torus") return torus(op, s);
  if (algo == "nvls") return nvls(op, groups);
  return p2p(op, groups);
}

}  // namespace

std::vector<std::string> collective_algorithms(const CollectiveOp& op, const RankGroups& groups,
                                               const SystemSpec& s, const std::string& requested) {
  std::vector<std::string> ok;
  bool reduce = op.kind == CollectiveKind::all_reduce;
  switch (op.kind) {
    case CollectiveKind::send_recv: ok = {"p2p"}; break;
    case CollectiveKind::all_to_all: ok = {"direct"}; break;
    case CollectiveKind::broadcast: ok = {"ring", "direct"}; break;
    default: ok = {"ring", "direct"};
  }
  if (reduce) ok.push_back("tree");
  if (reduce && spans_nodes(groups, s) && even_per_node(groups, s)) ok.push_back("hierarchical");
  if (reduce && whole_torus(groups, s)) ok.push_back("torus");
  if (reduce && s.tuning.nvls && !spans_nodes(groups, s)) ok.push_back("nvls");
  if (requested == "auto") {
    // NCCL's own choices: no direct all-reduce, all-gather or reduce-scatter (direct stays available by name)
    // — except on a fully connected mesh (xGMI), where RCCL runs one ring per link permutation so that
    // every peer link carries data at once: direct transfers are that traffic pattern.
    if (op.kind != CollectiveKind::all_to_all && op.kind != CollectiveKind::send_recv && !fully_connected(groups, s))
      std::erase(ok, std::string("direct"));
    return ok;
  }
  if (std::find(ok.begin(), ok.end(), requested) == ok.end())
    workload_error(fmt::format("algo={}: cannot run {} on these ranks (algorithms that can: {}{})", requested,
                               collective_name(op.kind), join(ok), did_you_mean(requested, ok)));
  return {requested};
}

namespace {

// The fluid lower bound of one round: its latency, then its busiest resource (link direction or
// bridge) moving all the bytes the round puts on it.
double round_cost(const std::vector<Transfer>& round, Fabric& fabric, const SystemSpec& s, Protocol p,
                  std::int64_t steps, double overhead) {
  std::unordered_map<ResourceId, double> load;
  std::unordered_map<std::int64_t, double> engine;  // per device: bytes its collective kernels move
  double hop = 0;
  for (const auto& t : round) {
    if (t.from == t.to) continue;
    const Route& r = fabric.route(t.from, t.to);
    hop = std::max(hop, r.latency + (r.crosses_network ? s.tuning.network_step_latency[int(p)] : 0));
    for (const auto& d : r.demands) load[d.resource] += d.weight * t.bytes;
    engine[t.from] += t.bytes * t.engine_share;
    engine[t.to] += t.bytes * t.engine_share;
  }
  double busiest = 0;
  if (s.tuning.engine_bandwidth > 0)
    for (const auto& [device, bytes] : engine)
      busiest = std::max(busiest, bytes * overhead / s.tuning.engine_bandwidth);
  const Topology& topo = fabric.topology();
  for (const auto& [res, bytes] : load) {
    bool link = res < 2 * topo.edges();
    // The protocol's overhead costs on every resource the bytes cross (Fabric::transfer scales them all).
    double cap = topo.resource_capacity(res) *
                 (link ? s.tuning.efficiency_of(topo.edge_of(res).scale == LinkScale::scale_out) : 1.0);
    busiest = std::max(busiest, bytes * overhead / cap);
  }
  return double(steps) * (s.tuning.step_latency[int(p)] + hop) + busiest;
}

// Whether the draft's transfers are within the bounds a collective may simulate.
bool fits(const Draft& d) {
  double total = 0;
  std::vector<Transfer> sample;
  for (const auto& phase : d.phases) {
    sample.clear();
    d.fill(phase.first, sample);
    if (double(sample.size()) > kMaxTransfersPerRound || (total += double(phase.rounds) * double(sample.size())) > kMaxTransfers)
      return false;
  }
  return true;
}

// What a draft run with protocol `p` waits before data moves, and its link bytes per byte moved.
double fixed_latency(const Draft& d, const SystemSpec& s, Protocol p) {
  return s.tuning.launch_overhead + (d.nvls ? s.tuning.nvls_base_latency : s.tuning.base_latency[int(p)]);
}
double overhead(const Draft& d, const SystemSpec& s, Protocol p) {
  return (d.nvls ? 1 / s.tuning.nvls_efficiency : 1.0) / s.tuning.efficiency[int(p)];
}

double estimate(const Draft& d, Fabric& fabric, const SystemSpec& s, Protocol p) {
  double t = fixed_latency(d, s, p);
  std::vector<Transfer> sample;
  for (const auto& phase : d.phases) {
    sample.clear();
    d.fill(phase.first, sample);
    t += double(phase.rounds) * round_cost(sample, fabric, s, p, d.steps, overhead(d, s, p));
  }
  return t;
}

}  // namespace

CollectivePlan plan_collective(const CollectiveOp& op, const RankGroups& groups, const SystemSpec& s, Fabric& fabric) {
  if (groups.empty() || groups.front().size() < 2)
    throw std::logic_error(std::string(collective_name(op.kind)) + ": planned without a group of ranks");
  std::vector<std::string> protocols = {"auto", "Simple"};
  if (s.tuning.low_latency_protocols) protocols = {"auto", "LL", "LL128", "Simple"};
  if (std::find(protocols.begin(), protocols.end(), op.proto) == protocols.end())
    workload_error(fmt::format("proto={}: not a protocol of this system's collectives (valid: {}{})", op.proto,
                               join(protocols), did_you_mean(op.proto, protocols)));
  CollectivePlan best;
  best.estimate = std::numeric_limits<double>::infinity();
  std::vector<std::string> too_large;  // algorithms whose transfers are past the bounds
  for (const auto& algo : collective_algorithms(op, groups, s, op.algo)) {
    Draft d = draft(algo, op, groups, s);
    if (!fits(d)) {  // refused by name; under auto, another algorithm may still fit
      too_large.push_back(algo);
      continue;
    }
    for (Protocol p : {Protocol::ll, Protocol::ll128, Protocol::simple}) {
      if (p != Protocol::simple && (!s.tuning.low_latency_protocols || d.nvls)) continue;
      if (op.proto != "auto" && op.proto != protocol_name(p)) continue;
      double t = estimate(d, fabric, s, p);
      if (t < best.estimate) {
        best.algorithm = d.algorithm;
        best.protocol = p;
        best.steps_per_round = d.steps;
        best.fixed = fixed_latency(d, s, p);
        best.overhead = overhead(d, s, p);
        best.rounds = 0;
        for (const auto& ph : d.phases) best.rounds += ph.rounds;
        best.transfers = d.fill;
        best.estimate = t;
      }
    }
  }
  if (!best.transfers) too_many_transfers(op, join(too_large));
  return best;
}

}  // namespace hwsim
