// The local refill (FlowNetwork::refill_local): after flows start or finish, only the flows
// connected to them through local resources are filled again, with the shared resources left out;
// the others keep their rates. Then each shared resource's load at those local rates is checked:
// below its capacity by a margin, no shared resource would limit any flow, and the rates are those
// of a whole filling, bit for bit (a whole filling would reach every shared resource's level only
// above every flow's local rate, so the same resources would saturate at the same levels, and a
// resource's level depends only on the flows crossing it). Otherwise the whole network fills.
#include "sim/engine/flow_network.h"

#include <algorithm>

namespace hwsim {

namespace {
// A shared resource loaded to within this share of its capacity at the local rates counts as
// limiting them (the whole network then fills). The margin covers the rounding of a level computed
// in doubles (a few units of 2^-53 of it) many times over; it costs speed, never exactness.
constexpr double kLoadMargin = 1e-9;
// A flow whose local rate alone loads a shared resource past this share of its first capacity
// (an unlimited local rate, for one) is counted apart from the sum: it surely limits.
constexpr double kOverload = 2.0;
}  // namespace

bool FlowNetwork::refill_local() {
  gather_scope();
  if (!fill(false)) return false;
  for (std::size_t i : scope_) {
    Flow& f = flows_[i];
    if (f.loaded) load(f, -1);
    if (is_done(f)) continue;
    f.local_rate = f.rate;
    load(f, +1);
  }
  // Every resource reached: weighted while a flow of the scope crosses it with weight.
  for (ResourceId r : dirty_resources_) dirty_mark_[std::size_t(r)] = 0, set_weighted(r, !entries_[r].empty());
  dirty_resources_.clear();
  loose_.clear();
  return true;
}

// From the dirty resources through the flows crossing them to the other local resources those
// cross, until no new resource is reached; dirty_resources_ grows into the list of every resource
// reached. A finished flow's load leaves the shared sums here.
void FlowNetwork::gather_scope() {
  scope_.clear();
  flow_mark_.assign(flows_.size(), 0);
  auto reach = [&](FlowId id) {
    std::size_t i = index_of(id);
    if (i == flows_.size() || flows_[i].id != id || flow_mark_[i]) return;  // gone (loose_), or reached
    flow_mark_[i] = 1;
    Flow& f = flows_[i];
    if (is_done(f)) {
      if (f.loaded) load(f, -1);
      return;
    }
    scope_.push_back(i);
    for_each_resource(f, [&](ResourceId r, double) {
      if (!hot_[std::size_t(r)].shared) mark_dirty(r);
    });
  };
  for (FlowId id : loose_) reach(id);
  for (std::size_t k = 0; k < dirty_resources_.size(); ++k)
    for (FlowId id : resources_[std::size_t(dirty_resources_[k])].flows) reach(id);
  std::sort(scope_.begin(), scope_.end());
}

bool FlowNetwork::shared_limits() const {
  for (ResourceId r : shared_) {
    const Resource& res = resources_[std::size_t(r)];
    if (res.overloads > 0) return true;
    double load = res.load.value();
    if (load > 0 && load >= hot_[std::size_t(r)].scale * (1 - kLoadMargin)) return true;
  }
  return false;
}

void FlowNetwork::load(Flow& f, int sign) {
  std::size_t count = f.count();
  f.demands.for_each([&](const FlowDemand& d) {
    const Hot& hot = hot_[std::size_t(d.resource)];
    if (!hot.shared || !(d.weight > 0)) return;
    Resource& res = resources_[std::size_t(d.resource)];
    double share = f.local_rate * d.weight * hot.unit;
    if (!(share <= kOverload)) {
      res.overloads = std::uint32_t(int(res.overloads) + sign);
      return;
    }
    if (sign > 0) res.load.add(LoadSum::quanta(share), count);
    else res.load.subtract(LoadSum::quanta(share), count);
  });
  f.loaded = sign > 0;
}

void FlowNetwork::adopt_local() {
  for (ResourceId r : shared_) resources_[std::size_t(r)].load.clear(), resources_[std::size_t(r)].overloads = 0;
  for (Resource& res : resources_) res.flows.clear();
  for (Flow& f : flows_) {
    list_local(f, false);
    f.loaded = false;
    if (is_done(f)) continue;
    f.local_rate = f.rate;
    load(f, +1);
  }
  for (ResourceId r : dirty_resources_) dirty_mark_[std::size_t(r)] = 0;
  dirty_resources_.clear();
  loose_.clear();
  local_valid_ = true;
}

}  // namespace hwsim
