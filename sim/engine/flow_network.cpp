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
// apart (their private resources differ) is split, and the filling starts again.
//
// The arithmetic is that of a pass over every unfrozen flow each round (tests/unit/u191), done
// with less work: unfrozen flows all have the same rate (`level`: every one starts at 0 and rises
// by the same steps); a resource's summed weight is added again, in flow order, only when one of
// its flows froze (otherwise the same additions give the same sum); only the flows of a resource
// that saturated are looked up.
bool FlowNetwork::fill_rates() {
  list_entries();
  double level = 0;
  while (!live_.empty()) {
    double step = min_cap_ - level;  // the least (cap - rate): rounding is monotone, so exact
    for (ResourceId r : active_)
      if (weight_[r] > 0) step = std::min(step, spare_[r] / weight_[r]);
    if (!std::isfinite(step)) step = 0;  // unconstrained flow: treat as instantaneous below
    level += step;
    for (ResourceId r : active_) {
      spare_[r] -= weight_[r] * step;
      saturated_[r] = spare_[r] <= resources_[r].capacity * kSaturated;
    }
    mark_saturated(step);
    Verdicts v = freeze(level, step);
    if (v == Verdicts::split) return false;
    if (v == Verdicts::done) break;
    resum_dirty();
  }
  for (std::size_t i : live_) flows_[i].rate = level;
  return true;
}

void FlowNetwork::list_entries() {
  for (ResourceId r : active_) entries_[r].clear();
  entries_.resize(resources_.size());
  weight_.assign(resources_.size(), 0.0);
  spare_.resize(resources_.size());
  saturated_.resize(resources_.size());
  listed_.assign(resources_.size(), 0);
  full_.assign(flows_.size(), 0);
  frozen_.assign(flows_.size(), 0);
  cap_.resize(flows_.size());
  changed_.clear();
  held_members_.assign(flows_.size(), 0);
  active_.clear();
  live_.clear();
  min_cap_ = kInf;
  auto add = [&](ResourceId r, Entry e) {
    if (!listed_[r]) listed_[r] = 1, active_.push_back(r), spare_[r] = resources_[r].capacity;
    entries_[r].push_back(e);
    for (std::uint32_t k = 0; k < e.times; ++k) weight_[r] += e.weight;
  };
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    Flow& f = flows_[i];
    f.rate = 0;
    if (is_done(f)) continue;
    live_.push_back(i);
    cap_[i] = f.max_rate;
    min_cap_ = std::min(min_cap_, f.max_rate);
    auto flow = std::uint32_t(i), times = std::uint32_t(f.count());
    f.demands.for_each([&](const FlowDemand& d) { add(d.resource, {flow, times, false, d.weight}); });
    for (ResourceId m : f.members) add(m, {flow, 1, true, f.member_weight});
  }
  for (ResourceId r : active_) listed_[r] = 0;
}

// A resource with weight saturates only this round: its weighted flows froze when it did.
void FlowNetwork::mark_saturated(double step) {
  if (step == 0) return;  // every live flow freezes
  for (ResourceId r : active_) {
    if (!saturated_[r] || !(weight_[r] > 0)) continue;
    for (const Entry& e : entries_[r]) {
      if (e.member) ++held_members_[e.flow];
      else if (e.weight > 0) full_[e.flow] = 1;
    }
  }
}

// In flow order, as a pass over them would decide: the first group whose members part ways is
// split (the filling then starts again).
FlowNetwork::Verdicts FlowNetwork::freeze(double level, double step) {
  std::size_t kept = 0;
  double min_cap = kInf;
  for (std::size_t i : live_) {
    if (step != 0 && !full_[i] && held_members_[i] == 0 && !(level >= cap_[i] * (1 - kSaturated))) {
      live_[kept++] = i, min_cap = std::min(min_cap, cap_[i]);  // the common case: it rises on
      continue;
    }
    Flow& f = flows_[i];
    bool full = level >= f.max_rate * (1 - kSaturated) || full_[i];
    if (!full && step != 0 && f.member_weight > 0 && !f.members.empty()) {
      std::size_t held = held_members_[i];
      if (held > 0 && held < f.members.size()) {
        split_group(i);
        return Verdicts::split;
      }
      full = held > 0;
    }
    full_[i] = 0, held_members_[i] = 0;
    if (!full && step != 0) {
      live_[kept++] = i, min_cap = std::min(min_cap, f.max_rate);
      continue;
    }
    f.rate = level, frozen_[i] = 1;
    auto changed = [&](ResourceId r) {
      if (!listed_[r]) listed_[r] = 1, changed_.push_back(r);
    };
    f.demands.for_each([&](const FlowDemand& d) { changed(d.resource); });
    for (ResourceId m : f.members) changed(m);
  }
  if (kept == live_.size()) return Verdicts::done;  // cannot happen in exact arithmetic; guards against an endless loop
  live_.resize(kept);
  min_cap_ = min_cap;
  return live_.empty() ? Verdicts::done : Verdicts::continuing;
}

void FlowNetwork::resum_dirty() {
  bool emptied = false;
  for (ResourceId r : changed_) {
    listed_[r] = 0;
    std::vector<Entry>& list = entries_[r];
    std::size_t kept = 0;
    double sum = 0;
    for (const Entry& e : list) {
      if (frozen_[e.flow]) continue;
      list[kept++] = e;
      for (std::uint32_t k = 0; k < e.times; ++k) sum += e.weight;
    }
    list.resize(kept);
    weight_[r] = sum;
    emptied = emptied || kept == 0;
  }
  changed_.clear();
  if (emptied)
    active_.erase(std::remove_if(active_.begin(), active_.end(), [&](ResourceId r) { return entries_[r].empty(); }),
                  active_.end());
}

}  // namespace hwsim
