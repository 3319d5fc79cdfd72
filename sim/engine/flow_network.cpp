#include "sim/engine/flow_network.h"

#include <algorithm>
#include <cmath>

namespace hwsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// A flow is done when less than this fraction of its bytes (or of one byte) remains; absorbs
// floating-point residue from advancing to a predicted completion time.
constexpr double kDoneFraction = 1e-9;
// A resource is saturated, and a flow at its cap, within this relative margin.
constexpr double kSaturated = 1e-12;
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

FlowId FlowNetwork::start_group(FlowSpec spec, FlowMembers group, MembersDone on_done) {
  if (group.members.empty()) throw std::logic_error("FlowNetwork::start_group: a group without members");
  Flow f;
  f.id = next_id_;
  next_id_ += FlowId(group.members.size());  // an id per member, as separate flows would have
  f.remaining = spec.bytes;
  f.initial = spec.bytes;
  f.max_rate = spec.max_rate;
  f.demands = std::move(spec.demands);
  f.members = group.members;
  f.member_weight = group.weight;
  f.member_begin = group.first;
  f.on_members = std::move(on_done);
  flows_.push_back(std::move(f));
  dirty_ = true;
  return flows_.back().id;
}

std::size_t FlowNetwork::active_flows() const {
  std::size_t n = 0;
  for (const auto& f : flows_) n += f.count();
  return n;
}

bool FlowNetwork::is_done(const Flow& f) const {
  return f.remaining <= std::max(1.0, f.initial) * kDoneFraction;
}

// A group's members progress as one; each of its shared demands is added once per member, in a
// row, as its separate flows would add them.
void FlowNetwork::advance_to(double t) {
  double dt = t - now_;
  if (dt <= 0) return;
  settle();
  load_.assign(resources_.size(), 0.0);
  for (auto& f : flows_) {
    double moved = std::min(f.remaining, f.rate * dt);
    f.remaining -= moved;
    std::size_t count = f.count();
    f.demands.for_each([&](const FlowDemand& d) {
      for (std::size_t k = 0; k < count; ++k) resources_[d.resource].bytes += moved * d.weight;
      load_[d.resource] += f.rate * d.weight;  // only whether it is above 0 matters
    });
    for (ResourceId m : f.members) {
      resources_[m].bytes += moved * f.member_weight;
      load_[m] += f.rate * f.member_weight;
    }
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
  for (const auto& f : take_finished_callbacks())
    for (std::size_t k = 0; k < std::max<std::size_t>(1, f.end - f.begin); ++k) ids.push_back(f.id + FlowId(k));
  return ids;
}

std::vector<FlowNetwork::Finished> FlowNetwork::take_finished_callbacks() {
  std::vector<Finished> done;
  take_finished_callbacks(done);
  return done;
}

void FlowNetwork::take_finished_callbacks(std::vector<Finished>& done) {
  done.clear();
  auto keep = std::remove_if(flows_.begin(), flows_.end(), [&](Flow& f) {
    if (!is_done(f)) return false;
    if (f.on_members)
      done.push_back({f.id, {}, std::move(f.on_members), f.member_begin, f.member_begin + f.count()});
    else
      done.push_back({f.id, std::move(f.on_done), {}, 0, 0});
    return true;
  });
  if (keep != flows_.end()) {
    flows_.erase(keep, flows_.end());
    dirty_ = true;
  }
}

std::string FlowNetwork::describe(const std::string& headline) const {
  std::string out = headline;
  for (const auto& f : flows_)
    out += "; flow " + std::to_string(f.id) + (f.members.empty() ? "" : " (x" + std::to_string(f.count()) + ")") +
           " remaining " + std::to_string(f.remaining) + " of " + std::to_string(f.initial) + " at " +
           std::to_string(f.rate) + " B/s (cap " + std::to_string(f.max_rate) + ")";
  return out;
}

double FlowNetwork::current_rate(FlowId id) {
  settle();
  for (const auto& f : flows_)
    if (id >= f.id && id < f.id + FlowId(f.count())) return f.rate;
  return 0;
}

void FlowNetwork::split_group(std::size_t i) {
  Flow group = std::move(flows_[i]);
  std::vector<Flow> parts(group.count());
  for (std::size_t k = 0; k < parts.size(); ++k) {
    Flow& p = parts[k];
    p = group;
    p.id = group.id + FlowId(k);
    p.members = group.members.subspan(k, 1);
    p.member_begin = group.member_begin + k;
  }
  flows_.erase(flows_.begin() + std::ptrdiff_t(i));
  flows_.insert(flows_.begin() + std::ptrdiff_t(i), std::make_move_iterator(parts.begin()),
                std::make_move_iterator(parts.end()));
}

void FlowNetwork::recompute_rates() {
  dirty_ = false;
  while (!fill_rates()) {
  }
  for (auto& f : flows_)
    if (f.rate == 0 && !is_done(f) && f.max_rate == kInf && f.demands.empty() && f.members.empty()) f.remaining = 0;
}

// Progressive filling: raise every unfrozen flow's rate by the same amount until a flow reaches
// its cap or a resource saturates; freeze those flows; repeat. A group whose members would freeze
// apart (their private resources differ) is split, and the filling starts again. Each round visits
// only the unfrozen flows (live_, in flow order) and the resources they load (active_), with the
// arithmetic of a pass over them all: sums in flow order, untouched resources unchanged.
bool FlowNetwork::fill_rates() {
  touch_resources();
  live_.clear();
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    flows_[i].rate = 0;
    if (!is_done(flows_[i])) live_.push_back(i);
  }
  active_.clear();
  while (!live_.empty()) {
    double step = sum_live_loads();
    for (ResourceId r : active_)
      if (weight_[r] > 0) step = std::min(step, spare_[r] / weight_[r]);
    if (!std::isfinite(step)) step = 0;  // unconstrained flow: treat as instantaneous below
    for (ResourceId r : active_) {
      spare_[r] -= weight_[r] * step;
      saturated_[r] = spare_[r] <= resources_[r].capacity * kSaturated;
    }
    std::size_t kept = 0;
    for (std::size_t i : live_) {
      Freeze verdict = raise(flows_[i], step);
      if (verdict == Freeze::split) {  // members part ways: run them apart
        split_group(i);
        return false;
      }
      if (verdict == Freeze::no) live_[kept++] = i;
    }
    if (kept == live_.size()) break;  // cannot happen in exact arithmetic; guards against an endless loop
    live_.resize(kept);
  }
  return true;
}

// The resources some flow crosses take part: their spare capacity starts full, their weight 0.
void FlowNetwork::touch_resources() {
  touched_.clear();
  weight_.assign(resources_.size(), 0.0);
  in_active_.assign(resources_.size(), 0);
  auto touch = [&](ResourceId r) {
    if (!in_active_[r]) in_active_[r] = 1, touched_.push_back(r);
  };
  for (const auto& f : flows_) {
    f.demands.for_each([&](const FlowDemand& d) { touch(d.resource); });
    for (ResourceId m : f.members) touch(m);
  }
  spare_.resize(resources_.size());
  saturated_.resize(resources_.size());
  for (ResourceId r : touched_) spare_[r] = resources_[r].capacity, in_active_[r] = 0;
}

// The live flows' weights on each resource they cross (into weight_, listing active_), each
// demand of a group added once per member in a row; returns the least headroom to a flow's cap.
double FlowNetwork::sum_live_loads() {
  for (ResourceId r : active_) weight_[r] = 0, in_active_[r] = 0;
  active_.clear();
  auto load = [&](ResourceId r, double w, std::size_t times) {
    if (!in_active_[r]) in_active_[r] = 1, active_.push_back(r);
    double& sum = weight_[r];
    for (std::size_t k = 0; k < times; ++k) sum += w;
  };
  double step = kInf;
  for (std::size_t i : live_) {
    const Flow& f = flows_[i];
    step = std::min(step, f.max_rate - f.rate);
    std::size_t count = f.count();
    f.demands.for_each([&](const FlowDemand& d) { load(d.resource, d.weight, count); });
    for (ResourceId m : f.members) load(m, f.member_weight, 1);
  }
  return step;
}

// Raises f's rate by `step`; whether it froze (at its cap or on a saturated resource), or is a
// group whose members' private resources saturated apart. Every resource f crosses is active
// (its saturated_ flag is this round's).
FlowNetwork::Freeze FlowNetwork::raise(Flow& f, double step) const {
  auto saturated = [&](ResourceId r) { return saturated_[r] != 0; };
  f.rate += step;
  bool full = f.rate >= f.max_rate * (1 - kSaturated);
  f.demands.for_each([&](const FlowDemand& d) {
    if (d.weight > 0 && saturated(d.resource)) full = true;
  });
  if (!full && step != 0 && f.member_weight > 0 && !f.members.empty()) {
    std::size_t at_limit = 0;
    for (ResourceId m : f.members) at_limit += saturated(m) ? 1 : 0;
    if (at_limit > 0 && at_limit < f.members.size()) return Freeze::split;
    full = at_limit > 0;
  }
  return full || step == 0 ? Freeze::yes : Freeze::no;
}

}  // namespace hwsim
