#pragma once
// Routes between devices on a Topology: every shortest path (fewest hops) at once, the traffic
// split over them at each hop in proportion to the bandwidth of the next links (NVLink spraying
// over NVSwitch chips, ECMP over a fat tree's spines). A route is a list of flow-network demands:
// a resource (a link direction or a vertex) and the bytes it carries per byte sent.
#include <cstdint>
#include <vector>

#include "models/cluster/topology.h"
#include "sim/engine/flow_network.h"

namespace hwsim {

struct Route {
  std::vector<FlowDemand> demands;  // sorted by resource; resource ids are Topology's
  int hops = 0;
  double latency = 0;               // link and switch latency along a shortest path
  bool crosses_network = false;     // some path uses a scale-out link
  double energy_per_byte = 0;       // link energy per byte sent, averaged over the split
  // The rate the route sustains alone: min over its demands of capacity / weight.
  double bandwidth = 0;
};

// The route from device `from` to device `to` (a different device). Bidirectional breadth-first
// search: visits about the vertices within half the distance of either end, so a 100,000-chip
// fat tree routes in microseconds. Throws UserError(config) if `to` cannot be reached.
Route route(const Topology& topology, std::int64_t from, std::int64_t to);

}  // namespace hwsim
