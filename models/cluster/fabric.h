#pragma once
// The links of a system as a SystemC module: transfers between devices are flows of the shared
// flow network over their routes, so transfers that share a link direction share its bandwidth
// (contention is simulated). Routes are computed on first use and kept (a ring touches n of the
// n² pairs). Only the resources some route uses enter the flow network.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "models/cluster/routing.h"
#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "sim/engine/flow_host.h"

namespace hwsim {

class Fabric : public sc_core::sc_module {
 public:
  // `tuning`: the share of each link's bandwidth bulk transfers reach (scale-up and network
  // links apart) and, engine_bandwidth > 0, the bytes/s each device's collective kernels move,
  // sent plus received.
  Fabric(sc_core::sc_module_name name, const Topology& topology, const CollectiveTuning& tuning);

  // Starts moving `bytes` from device `from` to device `to` now; `on_done` runs when the last byte
  // arrives (bandwidth only: the caller adds latency). `overhead` ≥ 1: link bytes per byte moved
  // (a protocol's flags); `engine_share` ≤ 1: of the bytes, the share the two devices' collective
  // kernels move (Transfer::engine_share). from == to completes at once.
  void transfer(std::int64_t from, std::int64_t to, double bytes, double overhead, std::function<void()> on_done,
                double engine_share = 1);

  const Route& route(std::int64_t from, std::int64_t to);
  // Bytes a transfer of `bytes` puts on links, every hop counted.
  double link_bytes_of(std::int64_t from, std::int64_t to, double bytes) {
    return from == to ? 0 : bytes * cached(from, to).hop_weight;
  }
  const Topology& topology() const { return topology_; }

  // Statistics: bytes over all links (each hop counted), and link energy in joules.
  double link_bytes() const { return link_bytes_; }
  double energy() const { return energy_; }
  // Per used resource: name, capacity, bytes moved, busy seconds (for reports and traces).
  struct LinkUse {
    std::string name;
    double capacity = 0, bytes = 0, busy = 0;
  };
  std::vector<LinkUse> link_use() const;  // links and bridges only (not the copy engines)

 private:
  struct CachedRoute {
    Route route;
    std::vector<FlowDemand> demands;  // in flow-network resource ids, weight per byte moved
    double hop_weight = 0;            // link bytes per byte moved (sum of link demands)
  };
  const CachedRoute& cached(std::int64_t from, std::int64_t to);
  ResourceId resource(std::int64_t topology_resource);
  ResourceId engine(std::int64_t device);
  bool is_engine(ResourceId id) const { return topology_resource_[std::size_t(id)] < 0; }

  const Topology& topology_;
  CollectiveTuning tuning_;
  std::unordered_map<std::int64_t, ResourceId> engines_;
  FlowHost host_;
  // Keyed by (from, to); looked up on every transfer, never iterated (so unordered: a tree of a
  // large system's pairs cost a tenth of a 405B training step's simulation in pointer chases).
  // References to entries stay valid as it grows (scaled_ keys on them).
  struct PairHash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const {
      return std::hash<std::int64_t>{}(p.first * 0x9E3779B97F4A7C15LL ^ p.second);
    }
  };
  std::unordered_map<std::pair<std::int64_t, std::int64_t>, CachedRoute, PairHash> routes_;
  std::unordered_map<std::int64_t, ResourceId> resources_;
  std::vector<std::int64_t> topology_resource_;  // inverse of resources_
  // Per protocol overhead and engine share.
  std::map<std::tuple<const CachedRoute*, double, double>, std::vector<FlowDemand>> scaled_;
  double link_bytes_ = 0, energy_ = 0;
};

}  // namespace hwsim
