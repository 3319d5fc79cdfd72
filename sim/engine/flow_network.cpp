#include "sim/engine/flow_network.h"

#include <algorithm>
#include <cmath>

namespace hwsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// A flow is done when less than this fraction of its bytes (or of one byte) remains; absorbs
// floating-point residue from advancing to a predicted completion time.
constexpr double kDoneFraction = 1e-9;
bool local_on = true;  // FlowNetwork::local_filling
constexpr std::uint32_t kUnlisted = std::numeric_limits<std::uint32_t>::max();  // not in weighted_
// Below this many flows (a group counts once) the whole network fills every time: a whole filling
// costs little more than a local refill, and the refill's book-keeping is not kept.
constexpr std::size_t kLocalMinFlows = 16;
}  // namespace

void FlowNetwork::local_filling(bool on) { local_on = on; }

namespace {
FlowNetwork::FillCounts process_counts;  // FlowNetwork::process_fill_counts
}  // namespace

FlowNetwork::FillCounts FlowNetwork::process_fill_counts() { return process_counts; }

ResourceId FlowNetwork::add_resource(std::string name, double capacity_bytes_per_s, ResourceScope scope) {
  bool shared = scope == ResourceScope::shared;
  double unit = capacity_bytes_per_s > 0 ? 1.0 / capacity_bytes_per_s : 1.0;
  auto id = ResourceId(resources_.size());
  Resource res;
  res.name = std::move(name);
  res.capacity = capacity_bytes_per_s;
  res.unit = unit;
  res.tally = -1;
  resources_.push_back(std::move(res));
  Hot hot;
  hot.scale = capacity_bytes_per_s * unit;
  hot.unit = unit;
  hot.shared = shared;
  hot_.push_back(hot);
  if (shared) shared_.push_back(id);
  weighted_at_.push_back(kUnlisted);
  dirty_mark_.push_back(0);
  return id;
}

void FlowNetwork::set_capacity(ResourceId r, double capacity_bytes_per_s) {
  if (resources_[r].capacity == capacity_bytes_per_s) return;
  resources_[r].capacity = capacity_bytes_per_s;
  hot_[std::size_t(r)].scale = capacity_bytes_per_s * resources_[r].unit;
  dirty_ = true;
  if (!hot_[std::size_t(r)].shared) mark_dirty(r);
}

FlowId FlowNetwork::start(FlowSpec spec, std::function<void()> on_done) {
  Flow f;
  f.id = next_id_++;
  f.remaining = spec.bytes;
  f.initial = spec.bytes;
  f.done_below = std::max(1.0, spec.bytes) * kDoneFraction;
  f.max_rate = spec.max_rate;
  f.demands = std::move(spec.demands);
  f.on_done = std::move(on_done);
  quantize(f);
  flows_.push_back(std::move(f));
  enter(flows_.back());
  dirty_ = true;
  return flows_.back().id;
}

FlowId FlowNetwork::start_group(FlowSpec spec, FlowMembers group, MembersDone on_done) {
  if (group.members.empty()) throw std::logic_error("FlowNetwork::start_group: a group without members");
  for (ResourceId m : group.members)
    if (hot_[std::size_t(m)].shared) throw std::logic_error("FlowNetwork::start_group: a member on a shared resource");
  Flow f;
  f.id = next_id_;
  next_id_ += FlowId(group.members.size());  // an id per member, as separate flows would have
  f.remaining = spec.bytes;
  f.initial = spec.bytes;
  f.done_below = std::max(1.0, spec.bytes) * kDoneFraction;
  f.max_rate = spec.max_rate;
  f.demands = std::move(spec.demands);
  f.members = group.members;
  f.member_weight = group.weight;
  f.member_begin = group.first;
  f.on_members = std::move(on_done);
  quantize(f);
  flows_.push_back(std::move(f));
  enter(flows_.back());
  dirty_ = true;
  return flows_.back().id;
}

void FlowNetwork::quantize(Flow& f) const {
  f.demands.for_each_indexed([&](const FlowDemand& d, std::size_t k) {
    Quanta q = WeightSum::quanta(d.weight * hot_[std::size_t(d.resource)].unit);
    if (k < f.quanta.size()) f.quanta[k] = q;
    else f.rest_quanta.push_back(q);
  });
  if (f.members.empty()) return;
  f.member_unit = hot_[std::size_t(f.members[0])].unit;
  f.member_quanta = WeightSum::quanta(f.member_weight * f.member_unit);
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

void FlowNetwork::restart() {
  if (flows_.size() > 0) throw std::logic_error("FlowNetwork::restart with flows live");
  now_ = 0;
  for (auto& t : tallies_) t.clear();
}

std::size_t FlowNetwork::active_flows() const {
  std::size_t n = 0;
  for (const auto& f : flows_) n += f.count();
  return n;
}


// Flows progress at their rates; the resources they load are busy all along (list_busy).
void FlowNetwork::advance_to(double t) {
  double dt = t - now_;
  if (dt <= 0) return;
  settle();
  for (ResourceId r : all_running_ ? weighted_ : busy_) hot_[std::size_t(r)].busy += dt;
  for (auto& f : flows_) {
    if (f.rate == 0) continue;
    bool was_done = is_done(f);
    f.remaining -= std::min(f.remaining, f.rate * dt);
    if (!was_done && is_done(f)) leave(f), dirty_ = true;
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
  bool removed = flows_.remove_if([&](Flow& f) {
    if (!is_done(f)) return false;
    finish_bytes(f);
    forget(f);
    if (f.on_members)
      done.push_back({f.id, {}, std::move(f.on_members), f.member_begin, f.member_begin + f.count()});
    else
      done.push_back({f.id, std::move(f.on_done), {}, 0, 0});
    return true;
  });
  if (removed) dirty_ = true;
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

std::size_t FlowNetwork::index_of(FlowId id) const {
  auto it = std::lower_bound(flows_.begin(), flows_.end(), id, [](const Flow& f, FlowId v) { return f.id < v; });
  return std::size_t(it - flows_.begin());
}

// Only while the local rates are current: otherwise the next filling is a whole one.
void FlowNetwork::mark_dirty(ResourceId r) {
  if (!local_valid_ || dirty_mark_[std::size_t(r)]) return;
  dirty_mark_[std::size_t(r)] = 1;
  dirty_resources_.push_back(r);
}

// weighted_ lists the resources live flows cross with weight (weighted_at_: each one's place
// there, or kUnlisted). A shared resource is in it while its count of such flows (kept as flows
// come and go) is not zero; a local one as the last filling that reached it found (its entries).
void FlowNetwork::set_weighted(ResourceId r, bool on) {
  std::uint32_t at = weighted_at_[std::size_t(r)];
  if (on == (at != kUnlisted)) return;
  if (on) {
    weighted_at_[std::size_t(r)] = std::uint32_t(weighted_.size());
    weighted_.push_back(r);
    return;
  }
  weighted_[at] = weighted_.back();
  weighted_at_[std::size_t(weighted_[at])] = at;
  weighted_.pop_back();
  weighted_at_[std::size_t(r)] = kUnlisted;
}

void FlowNetwork::count_weights(const Flow& f, int delta) {
  f.demands.for_each([&](const FlowDemand& d) {
    Hot& hot = hot_[std::size_t(d.resource)];
    if (!hot.shared || !(d.weight > 0)) return;
    hot.weighted = std::uint32_t(int(hot.weighted) + delta);
    set_weighted(d.resource, hot.weighted > 0);
  });
}

// After a whole filling: the local resources with entries are the weighted ones.
void FlowNetwork::list_weighted_locals() {
  for (ResourceId r : weighted_) weighted_at_[std::size_t(r)] = kUnlisted;
  weighted_.clear();
  auto list = [&](ResourceId r) {
    weighted_at_[std::size_t(r)] = std::uint32_t(weighted_.size());
    weighted_.push_back(r);
  };
  for (ResourceId r : shared_)
    if (hot_[std::size_t(r)].weighted > 0) list(r);
  for (ResourceId r : listed_resources_)
    if (!hot_[std::size_t(r)].shared) list(r);
}

// The lists of flows per local resource are kept while the local rates are current (they are
// built again when a whole filling makes them current: list_local). A flow that crosses no local
// resource is a part of its own: the next local refill takes it from loose_.
void FlowNetwork::enter(Flow& f) {
  if (!is_done(f)) count_weights(f, +1), f.counted = true;
  if (local_valid_) list_local(f, true);
}

void FlowNetwork::list_local(const Flow& f, bool dirty) {
  bool local = false;
  for_each_resource(f, [&](ResourceId r, double) {
    if (hot_[std::size_t(r)].shared) return;
    resources_[std::size_t(r)].flows.push_back(f.id);
    if (dirty) mark_dirty(r);
    local = true;
  });
  if (!local && dirty) loose_.push_back(f.id);
}

void FlowNetwork::leave(Flow& f) {
  if (f.counted) count_weights(f, -1), f.counted = false;
  if (!local_valid_) return;
  for_each_resource(f, [&](ResourceId r, double) {
    if (!hot_[std::size_t(r)].shared) mark_dirty(r);
  });
}

void FlowNetwork::forget(Flow& f) {
  if (f.counted) count_weights(f, -1), f.counted = false;
  if (f.loaded) load(f, -1);
  if (!local_valid_) return;
  for_each_resource(f, [&](ResourceId r, double) {
    if (hot_[std::size_t(r)].shared) return;
    mark_dirty(r);
    auto& list = resources_[std::size_t(r)].flows;
    auto it = std::find(list.begin(), list.end(), f.id);
    if (it == list.end()) return;
    *it = list.back();
    list.pop_back();
  });
}

// The parts take the group's place in flows_ (ids in order: a part's is the group's plus its first
// member's index) and in its resources' lists; each part keeps the group's local rate, so the
// shared loads (count × the same term) do not change. A part of alike members stays one group: the
// filling gives a group its members' rates bit for bit, and any later parting splits it again.
void FlowNetwork::split_group(std::size_t i, const std::vector<char>& held) {
  Flow group = std::move(flows_[i]);
  if (group.counted) count_weights(group, -1);
  const std::size_t n = group.count();
  std::vector<Flow> parts;
  part_of_.resize(n);
  for (std::size_t begin = 0, end = 0; begin < n; begin = end) {
    const char status = held[std::size_t(group.members[begin])];
    for (end = begin + 1; end < n && held[std::size_t(group.members[end])] == status;) ++end;
    Flow& p = parts.emplace_back(group);
    p.id = group.id + FlowId(begin);
    p.members = group.members.subspan(begin, end - begin);
    p.member_begin = group.member_begin + begin;
    if (p.counted) count_weights(p, +1);
    for (std::size_t k = begin; k < end; ++k) part_of_[k] = parts.size() - 1;
  }
  if (local_valid_) {
    group.demands.for_each([&](const FlowDemand& d) {
      if (hot_[std::size_t(d.resource)].shared) return;
      auto& list = resources_[std::size_t(d.resource)].flows;
      list.erase(std::find(list.begin(), list.end(), group.id));
      for (const Flow& p : parts) list.push_back(p.id);
    });
    for (std::size_t k = 0; k < n; ++k) {
      auto& list = resources_[std::size_t(group.members[k])].flows;
      *std::find(list.begin(), list.end(), group.id) = parts[part_of_[k]].id;
    }
  }
  flows_.replace(i, std::move(parts));
}

// The whole network fills when local filling is off, when the local rates are not current (a
// shared resource limited flows at the last filling), or when a shared resource would limit the
// local rates now. A whole filling in which no shared resource limited a flow gives the local
// rates: they are current again.
void FlowNetwork::recompute_rates() {
  dirty_ = false;
  bool local = local_on && tracks_local() && flows_.size() >= kLocalMinFlows;
  if (local && local_valid_) {
    const std::uint64_t saturations = watched_saturations_;
    if (refill_local() && !shared_limits()) {
      ++fill_counts_.local, ++process_counts.local;
      return list_busy();
    }
    watched_saturations_ = saturations;  // the local rates were not taken
  }
  fill_all();
  ++fill_counts_.whole, ++process_counts.whole;
  if (local && !shared_saturated_) return adopt_local(), list_busy();
  local_valid_ = false;
  for (ResourceId r : dirty_resources_) dirty_mark_[std::size_t(r)] = 0;
  dirty_resources_.clear();
  loose_.clear();
  list_busy();
}

void FlowNetwork::list_busy() {
  // Every live flow running: the resources they cross with weight (weighted_).
  all_running_ = std::all_of(flows_.begin(), flows_.end(), [&](const Flow& f) { return f.rate > 0 || is_done(f); });
  if (all_running_) return;
  busy_mark_.resize(resources_.size());
  busy_.clear();
  for (const auto& f : flows_) {
    if (!(f.rate > 0)) continue;
    for_each_resource(f, [&](ResourceId r, double weight) {
      if (weight > 0 && !busy_mark_[r]) busy_mark_[r] = 1, busy_.push_back(r);
    });
  }
  for (ResourceId r : busy_) busy_mark_[r] = 0;
}

}  // namespace hwsim
