#include "sim/engine/flow_network.h"

#include <algorithm>
#include <cmath>

namespace hwsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// A flow is done when less than this fraction of its bytes (or of one byte) remains; absorbs
// floating-point residue from advancing to a predicted completion time.
constexpr double kDoneFraction = 1e-9;
}  // namespace

ResourceId FlowNetwork::add_resource(std::string name, double capacity_bytes_per_s) {
  resources_.push_back(Resource{std::move(name), capacity_bytes_per_s});
  return ResourceId(resources_.size() - 1);
}

void FlowNetwork::set_capacity(ResourceId r, double capacity_bytes_per_s) {
  if (resources_[r].capacity == capacity_bytes_per_s) return;
  resources_[r].capacity = capacity_bytes_per_s;
  dirty_ = true;
}

FlowId FlowNetwork::start(FlowSpec spec, std::function<void()> on_done) {
  Flow f;
  f.id = next_id_++;
  f.remaining = spec.bytes;
  f.initial = spec.bytes;
  f.max_rate = spec.max_rate;
  f.demands = std::move(spec.demands);
  f.on_done = std::move(on_done);
  flows_.push_back(std::move(f));
  dirty_ = true;
  return flows_.back().id;
}

bool FlowNetwork::is_done(const Flow& f) const {
  return f.remaining <= std::max(1.0, f.initial) * kDoneFraction;
}

void FlowNetwork::advance_to(double t) {
  double dt = t - now_;
  if (dt <= 0) return;
  settle();
  load_.assign(resources_.size(), 0.0);
  for (auto& f : flows_) {
    double moved = std::min(f.remaining, f.rate * dt);
    f.remaining -= moved;
    f.demands.for_each([&](const FlowDemand& d) {
      resources_[d.resource].bytes += moved * d.weight;
      load_[d.resource] += f.rate * d.weight;
    });
  }
  for (std::size_t r = 0; r < resources_.size(); ++r) {
    if (load_[r] > 0) resources_[r].busy += dt;
  }
  now_ = t;
}

double FlowNetwork::next_completion() {
  settle();
  // At least one femtosecond ahead, and at least a few steps of now_'s own precision (beyond
  // ~2 s of simulated time a double in seconds resolves less than 1 fs): a remainder finishing
  // sooner would otherwise be scheduled at now_ itself and never progress.
  double min_step = std::max(1e-15, 4 * (std::nextafter(now_, kInf) - now_));
  double best = kInf;
  for (const auto& f : flows_) {
    if (is_done(f)) return now_;
    if (f.rate > 0) best = std::min(best, now_ + std::max(f.remaining / f.rate, min_step));
  }
  return best;
}

std::vector<FlowId> FlowNetwork::take_finished() {
  std::vector<FlowId> ids;
  for (const auto& f : take_finished_callbacks()) ids.push_back(f.id);
  return ids;
}

std::vector<FlowNetwork::Finished> FlowNetwork::take_finished_callbacks() {
  std::vector<Finished> done;
  auto keep = std::remove_if(flows_.begin(), flows_.end(), [&](Flow& f) {
    if (!is_done(f)) return false;
    done.push_back({f.id, std::move(f.on_done)});
    return true;
  });
  if (keep != flows_.end()) {
    flows_.erase(keep, flows_.end());
    dirty_ = true;
  }
  return done;
}

std::string FlowNetwork::describe(const std::string& headline) const {
  std::string out = headline;
  for (const auto& f : flows_)
    out += "; flow " + std::to_string(f.id) + " remaining " + std::to_string(f.remaining) + " of " +
           std::to_string(f.initial) + " at " + std::to_string(f.rate) + " B/s (cap " + std::to_string(f.max_rate) + ")";
  return out;
}

double FlowNetwork::current_rate(FlowId id) {
  settle();
  for (const auto& f : flows_)
    if (f.id == id) return f.rate;
  return 0;
}

// Progressive filling: raise every unfrozen flow's rate by the same amount until a flow reaches
// its cap or a resource saturates; freeze those flows; repeat.
void FlowNetwork::recompute_rates() {
  dirty_ = false;
  std::size_t n = flows_.size();
  // Only resources some flow crosses take part.
  touched_.clear();
  weight_.assign(resources_.size(), 0.0);
  for (const auto& f : flows_)
    f.demands.for_each([&](const FlowDemand& d) {
      if (weight_[d.resource] == 0) weight_[d.resource] = 1, touched_.push_back(d.resource);
    });
  spare_.resize(resources_.size());
  for (ResourceId r : touched_) spare_[r] = resources_[r].capacity;
  frozen_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    flows_[i].rate = 0;
    if (is_done(flows_[i])) frozen_[i] = 1;
  }
  for (;;) {
    for (ResourceId r : touched_) weight_[r] = 0;
    double step = kInf;
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen_[i]) continue;
      any = true;
      step = std::min(step, flows_[i].max_rate - flows_[i].rate);
      flows_[i].demands.for_each([&](const FlowDemand& d) { weight_[d.resource] += d.weight; });
    }
    if (!any) break;
    for (ResourceId r : touched_)
      if (weight_[r] > 0) step = std::min(step, spare_[r] / weight_[r]);
    if (!std::isfinite(step)) step = 0;  // unconstrained flow: treat as instantaneous below
    for (ResourceId r : touched_) spare_[r] -= weight_[r] * step;
    bool froze = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (frozen_[i]) continue;
      Flow& f = flows_[i];
      f.rate += step;
      bool saturated = f.rate >= f.max_rate * (1 - 1e-12);
      f.demands.for_each([&](const FlowDemand& d) {
        if (d.weight > 0 && spare_[d.resource] <= resources_[d.resource].capacity * 1e-12) saturated = true;
      });
      if (saturated || step == 0) {
        frozen_[i] = 1;
        froze = true;
      }
    }
    if (!froze) break;  // cannot happen in exact arithmetic; guards against an endless loop
  }
  for (auto& f : flows_)
    if (f.rate == 0 && !is_done(f) && f.max_rate == kInf && f.demands.empty()) f.remaining = 0;
}

}  // namespace hwsim
