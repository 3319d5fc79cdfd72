#include "models/cluster/fabric.h"

#include <fmt/format.h>

namespace hwsim {

Fabric::Fabric(sc_core::sc_module_name name, const Topology& topology, const CollectiveTuning& tuning)
    : sc_core::sc_module(name), topology_(topology), tuning_(tuning), host_("links") {}

ResourceId Fabric::engine(std::int64_t device) {
  auto [it, added] = engines_.emplace(device, ResourceId(0));
  if (added) {
    it->second = host_.network().add_resource(fmt::format("dev{}.collective", device), tuning_.engine_bandwidth);
    topology_resource_.push_back(-1);
  }
  return it->second;
}

ResourceId Fabric::resource(std::int64_t r) {
  auto [it, added] = resources_.emplace(r, ResourceId(0));
  if (added) {
    bool link = r < 2 * topology_.edges();
    double efficiency = link ? tuning_.efficiency_of(topology_.edge_of(r).scale == LinkScale::scale_out) : 1.0;
    double capacity = topology_.resource_capacity(r) * efficiency;
    it->second = host_.network().add_resource(topology_.resource_name(r), capacity);
    topology_resource_.push_back(r);
  }
  return it->second;
}

const Fabric::CachedRoute& Fabric::cached(std::int64_t from, std::int64_t to) {
  auto key = std::make_pair(from, to);
  auto it = routes_.find(key);
  if (it != routes_.end()) return it->second;
  CachedRoute c;
  c.route = hwsim::route(topology_, from, to);
  for (const auto& d : c.route.demands) {
    c.demands.push_back({resource(d.resource), d.weight});
    if (d.resource < 2 * topology_.edges()) c.hop_weight += d.weight;
  }
  if (tuning_.engine_bandwidth > 0) {
    c.demands.push_back({engine(from), 1.0});
    c.demands.push_back({engine(to), 1.0});
  }
  return routes_.emplace(key, std::move(c)).first->second;
}

const Route& Fabric::route(std::int64_t from, std::int64_t to) { return cached(from, to).route; }

void Fabric::transfer(std::int64_t from, std::int64_t to, double bytes, double overhead,
                      std::function<void()> on_done, double engine_share) {
  if (from == to || bytes <= 0) {
    host_.start(FlowSpec{0, std::numeric_limits<double>::infinity(), {}}, std::move(on_done));
    return;
  }
  const CachedRoute& c = cached(from, to);
  const std::vector<FlowDemand>* demands = &c.demands;
  if (overhead != 1.0 || engine_share != 1.0) {
    auto& scaled = scaled_[{&c, overhead, engine_share}];
    if (scaled.empty())
      for (const auto& d : c.demands)
        scaled.push_back({d.resource, d.weight * overhead * (is_engine(d.resource) ? engine_share : 1.0)});
    demands = &scaled;
  }
  link_bytes_ += bytes * c.hop_weight;
  energy_ += bytes * c.route.energy_per_byte;
  host_.start(FlowSpec{bytes, std::numeric_limits<double>::infinity(), FlowDemands(std::span<const FlowDemand>(*demands))},
              std::move(on_done));
}

std::vector<Fabric::LinkUse> Fabric::link_use() const {
  std::vector<LinkUse> out;
  const FlowNetwork& n = const_cast<Fabric*>(this)->host_.network();
  for (std::size_t i = 0; i < topology_resource_.size(); ++i) {
    if (topology_resource_[i] < 0) continue;  // a device's collective engine
    ResourceId id = ResourceId(i);
    out.push_back({n.name(id), n.capacity(id), n.bytes_through(id), n.busy_seconds(id)});
  }
  return out;
}

}  // namespace hwsim
