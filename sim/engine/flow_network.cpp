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
  double unit = capacity_bytes_per_s > 0 ? 1.0 / capacity_bytes_per_s : 1.0;
  resources_.push_back(Resource{std::move(name), capacity_bytes_per_s, unit, {}, 0, -1});
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
  quantize(f);
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
  quantize(f);
  flows_.push_back(std::move(f));
  dirty_ = true;
  return flows_.back().id;
}

void FlowNetwork::quantize(Flow& f) const {
  f.demands.for_each_indexed([&](const FlowDemand& d, std::size_t k) {
    Quanta q = WeightSum::quanta(d.weight * resources_[d.resource].unit);
    if (k < f.quanta.size()) f.quanta[k] = q;
    else f.rest_quanta.push_back(q);
  });
  if (f.members.empty()) return;
  f.member_unit = resources_[f.members[0]].unit;
  f.member_quanta = WeightSum::quanta(f.member_weight * f.member_unit);
}

// A member on a resource of another unit than the first member's takes its own term.
FlowNetwork::Quanta FlowNetwork::member_quanta(const Flow& f, ResourceId m) const {
  double unit = resources_[m].unit;
  return unit == f.member_unit ? f.member_quanta : WeightSum::quanta(f.member_weight * unit);
}

void FlowNetwork::finish_bytes(const Flow& f) {
  auto take = [&](ResourceId r, ByteSum::Quanta q, std::size_t times) {
    Resource& res = resources_[std::size_t(r)];
    res.finished.add(q, times);
    if (res.tally >= 0) tallies_[std::size_t(res.tally)].add(q, times);
  };
  std::size_t count = f.count();
  f.demands.for_each([&](const FlowDemand& d) { take(d.resource, ByteSum::quanta(f.initial * d.weight), count); });
  if (f.members.empty()) return;
  ByteSum::Quanta each = ByteSum::quanta(f.initial * f.member_weight);
  for (ResourceId m : f.members) take(m, each, 1);
}

// The finished flows' bytes, then the live flows' progress, summed exactly.
double FlowNetwork::bytes_through(ResourceId r) const {
  ByteSum sum = resources_[std::size_t(r)].finished;
  for_each_progress([&](ResourceId on, double bytes, std::size_t times) {
    if (on == r) sum.add(bytes, times);
  });
  return sum.value();
}

TallyId FlowNetwork::add_tally(std::span<const ResourceId> resources) {
  auto id = TallyId(tallies_.size());
  ByteSum finished;
  for (ResourceId r : resources) {
    Resource& res = resources_[std::size_t(r)];
    if (res.tally == id) continue;
    if (res.tally >= 0) throw std::logic_error("FlowNetwork::add_tally: " + res.name + " is in another tally");
    res.tally = id;
    finished.add(res.finished);
  }
  tallies_.push_back(finished);
  tally_slot_.push_back(0);
  return id;
}

// One pass over the live flows for every tally asked (tally_slot_: its place in `out` + 1).
void FlowNetwork::tally_bytes(std::span<const TallyId> tallies, std::span<double> out) const {
  tally_sums_.assign(tallies.size(), ByteSum{});
  for (std::size_t k = 0; k < tallies.size(); ++k) {
    tally_slot_[std::size_t(tallies[k])] = std::uint32_t(k + 1);
    tally_sums_[k] = tallies_[std::size_t(tallies[k])];
  }
  auto slot = [&](ResourceId r) -> std::uint32_t {
    int t = resources_[std::size_t(r)].tally;
    return t < 0 ? 0 : tally_slot_[std::size_t(t)];
  };
  for_each_progress([&](ResourceId r, double bytes, std::size_t times) {
    if (auto k = slot(r)) tally_sums_[k - 1].add(bytes, times);
  });
  for (std::size_t k = 0; k < tallies.size(); ++k) {
    tally_slot_[std::size_t(tallies[k])] = 0;
    out[k] = tally_sums_[k].value();
  }
}

std::size_t FlowNetwork::active_flows() const {
  std::size_t n = 0;
  for (const auto& f : flows_) n += f.count();
  return n;
}

bool FlowNetwork::is_done(const Flow& f) const {
  return f.remaining <= std::max(1.0, f.initial) * kDoneFraction;
}

// Flows progress at their rates; the resources they load are busy all along (list_busy).
void FlowNetwork::advance_to(double t) {
  double dt = t - now_;
  if (dt <= 0) return;
  settle();
  for (auto& f : flows_) f.remaining -= std::min(f.remaining, f.rate * dt);
  for (ResourceId r : busy_) resources_[r].busy += dt;
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
    finish_bytes(f);
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
  list_busy();
}

void FlowNetwork::list_busy() {
  // Every live flow running: the resources they cross with weight, as listed (weighted_).
  if (std::all_of(flows_.begin(), flows_.end(), [&](const Flow& f) { return f.rate > 0 || is_done(f); })) {
    busy_.swap(weighted_);
    return;
  }
  busy_mark_.resize(resources_.size());
  busy_.clear();
  auto load = [&](ResourceId r, double weight) {
    if (weight > 0 && !busy_mark_[r]) busy_mark_[r] = 1, busy_.push_back(r);
  };
  for (const auto& f : flows_) {
    if (!(f.rate > 0)) continue;
    f.demands.for_each([&](const FlowDemand& d) { load(d.resource, d.weight); });
    for (ResourceId m : f.members) load(m, f.member_weight);
  }
  for (ResourceId r : busy_) busy_mark_[r] = 0;
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
  for (ResourceId r : listed_resources_) entries_[r].clear();
  entries_.resize(resources_.size());
  weight_sum_.resize(resources_.size());
  weight_.resize(resources_.size());
  spare_.resize(resources_.size());
  saturated_.resize(resources_.size());
  listed_.assign(resources_.size(), 0);
  full_.assign(flows_.size(), 0);
  frozen_.assign(flows_.size(), 0);
  cap_.resize(flows_.size());
  changed_.clear();
  held_members_.assign(flows_.size(), 0);
  listed_resources_.clear();
  weighted_.clear();
  busy_mark_.resize(resources_.size());
  live_.clear();
  min_cap_ = kInf;
  auto add = [&](ResourceId r, Entry e, Quanta q) {
    if (!listed_[r]) {
      listed_[r] = 1, listed_resources_.push_back(r), spare_[r] = resources_[r].capacity;
      weight_sum_[r].clear();
    }
    entries_[r].push_back(e);
    weight_sum_[r].add(q, e.times);
    busy_mark_[r] |= char(e.weight > 0);
  };
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    Flow& f = flows_[i];
    f.rate = 0;
    if (is_done(f)) continue;
    live_.push_back(i);
    cap_[i] = f.max_rate;
    min_cap_ = std::min(min_cap_, f.max_rate);
    auto flow = std::uint32_t(i), times = std::uint32_t(f.count());
    f.demands.for_each_indexed(
        [&](const FlowDemand& d, std::size_t k) { add(d.resource, {flow, times, false, d.weight}, f.demand_quanta(k)); });
    for (ResourceId m : f.members) add(m, {flow, 1, true, f.member_weight}, member_quanta(f, m));
  }
  // Resources crossed with no weight take no part in the filling.
  active_.clear();
  for (ResourceId r : listed_resources_) {
    if (busy_mark_[r]) weighted_.push_back(r), busy_mark_[r] = 0;
    listed_[r] = 0;
    weight_[r] = weight_sum_[r].value() / resources_[r].unit;
    if (!weight_sum_[r].zero()) active_.push_back(r);
  }
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
    unweigh(f);
  }
  if (kept == live_.size()) return Verdicts::done;  // cannot happen in exact arithmetic; guards against an endless loop
  live_.resize(kept);
  min_cap_ = min_cap;
  return live_.empty() ? Verdicts::done : Verdicts::continuing;
}

void FlowNetwork::unweigh(const Flow& f) {
  auto take = [&](ResourceId r, Quanta q, std::size_t times) {
    weight_sum_[r].subtract(q, times);
    if (!listed_[r]) listed_[r] = 1, changed_.push_back(r);
  };
  std::size_t count = f.count();
  f.demands.for_each_indexed([&](const FlowDemand& d, std::size_t k) { take(d.resource, f.demand_quanta(k), count); });
  for (ResourceId m : f.members) take(m, member_quanta(f, m), 1);
}

void FlowNetwork::resum_dirty() {
  bool emptied = false;
  for (ResourceId r : changed_) {
    listed_[r] = 0;
    weight_[r] = weight_sum_[r].value() / resources_[r].unit;
    emptied = emptied || weight_sum_[r].zero();
  }
  changed_.clear();
  if (emptied)
    active_.erase(std::remove_if(active_.begin(), active_.end(), [&](ResourceId r) { return weight_sum_[r].zero(); }),
                  active_.end());
}

}  // namespace hwsim
