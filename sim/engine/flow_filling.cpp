// Progressive filling in levels (FlowNetwork::fill): every unfrozen flow of the scope rises at the
// same rate, the level; a resource saturates at the level where its frozen flows' load and its
// unfrozen flows' weight × the level fill its capacity, computed directly from exact sums:
//   level_r = (capacity × unit − frozen load) ÷ unfrozen weight   (to kLevelBits bits, rounded
//   down; never below the level now).
// Each round the lowest level among the resources and the unfrozen flows' caps is reached; every
// resource at exactly that level saturates at once and freezes the flows crossing it with weight,
// as every flow at its cap freezes. A group whose members part ways (some on a saturated resource,
// some not) is split into its members and the scope is filled again, so a group gives its members'
// rates bit for bit. A resource's level depends only on the flows crossing it and the levels at
// which they froze: flows not connected through saturating resources do not affect each other's
// rates, which is what lets a part of the network be refilled alone (flow_local.cpp).
#include "sim/engine/flow_network.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>

namespace hwsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// A saturation level keeps this many significant bits, rounded down (to within ~1e-9 of the
// exact level, never above it: no resource is loaded past its capacity). Levels that differ only
// by the rounding of weights computed along different paths (~1e-13 apart: two private resources
// whose flows' weights differ in the last bits) are then equal, and those resources saturate
// together: a group of alike flows on them stays whole instead of being split into its members.
constexpr int kLevelBits = 30;

double round_level(double x) {
  if (!(x > 0) || x == kInf) return x;
  constexpr std::uint64_t kDropped = (std::uint64_t(1) << (53 - kLevelBits)) - 1;  // of 53 significant bits
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) & ~kDropped);
}
}  // namespace

void FlowNetwork::fill_all() {
  do {
    scope_.resize(flows_.size());
    std::iota(scope_.begin(), scope_.end(), std::size_t(0));
  } while (!fill(true));
  list_weighted_locals();
}

bool FlowNetwork::fill(bool with_shared) {
  if (with_shared && fill_one()) return true;
  list_entries(with_shared);
  shared_saturated_ = false;
  while (!live_.empty()) {
    double level = min_cap_;
    for (ResourceId r : active_) level = std::min(level, level_[r]);
    if (level == kInf) {
      // Nothing in the scope limits these flows: one that crosses nothing with weight completes at
      // once; one limited only by shared resources left out (a local refill) rises without bound
      // here, which the shared resources' check catches.
      for (std::size_t i : live_) {
        Flow& f = flows_[i];
        bool shared_weight = false;
        f.demands.for_each([&](const FlowDemand& d) {
          shared_weight = shared_weight || (d.weight > 0 && hot_[std::size_t(d.resource)].shared);
        });
        if (!with_shared && shared_weight) {
          f.rate = kInf;
        } else {
          f.rate = 0, f.remaining = 0;
          leave(f);
        }
      }
      live_.clear();
      break;
    }
    if (!freeze(level, with_shared)) return false;
    relevel(level);
  }
  return true;
}

// A whole filling of no flow, or of one (a group: its members each on a private resource), the
// filling's first and only round done directly: the flow's weight on each resource it crosses is
// summed as list_entries sums it, each resource's level computed as there, and the flow takes
// the lowest level or its cap, as freeze would give it. False, and nothing changed, when the
// rounds are needed after all: no resource limits the flow (it completes at once), or the lowest
// level holds only some of a group's members (the group splits).
bool FlowNetwork::fill_one() {
  if (scope_.empty()) {  // nothing to fill: the listing of the last filling goes
    clear_listing();
    shared_saturated_ = false;
    live_.clear();
    return true;
  }
  if (scope_.size() != 1) return false;
  Flow& f = flows_[scope_[0]];
  if (is_done(f)) return false;
  clear_listing();
  auto add = [&](ResourceId r, Quanta q, std::size_t times) {
    if (!listed_[r]) listed_[r] = 1, listed_resources_.push_back(r), weight_sum_[r].clear();
    weight_sum_[r].add(q, times);
  };
  const std::size_t nr = resources_.size();
  entries_.resize(nr), weight_sum_.resize(nr), level_.resize(nr), listed_.resize(nr);
  f.demands.for_each_indexed([&](const FlowDemand& d, std::size_t k) {
    if (d.weight > 0) add(d.resource, f.demand_quanta(k), f.count());
  });
  if (f.member_weight > 0)
    for (ResourceId m : f.members) add(m, member_quanta(f, m), 1);
  double level = f.max_rate;
  for (ResourceId r : listed_resources_) {
    listed_[r] = 0;
    level_[r] = weight_sum_[r].zero() ? kInf : round_level(hot_[std::size_t(r)].scale / weight_sum_[r].value());
    level = std::min(level, level_[r]);
  }
  if (level == kInf) return false;
  bool full = f.max_rate <= level, shared = false;
  f.demands.for_each([&](const FlowDemand& d) {
    if (!(d.weight > 0) || level_[d.resource] != level) return;
    full = true, shared = shared || hot_[std::size_t(d.resource)].shared;
  });
  std::size_t held = 0;
  if (f.member_weight > 0)
    for (ResourceId m : f.members) held += level_[m] == level ? 1 : 0;
  if (!full && held < f.members.size()) return false;  // part of the group holds: it splits
  f.demands.for_each([&](const FlowDemand& d) {
    if (d.weight > 0 && level_[d.resource] == level && hot_[std::size_t(d.resource)].watched) ++watched_saturations_;
  });
  if (f.member_weight > 0)
    for (ResourceId m : f.members) watched_saturations_ += level_[m] == level && hot_[std::size_t(m)].watched ? 1 : 0;
  f.rate = level;
  shared_saturated_ = shared;
  live_.clear();
  return true;
}

// The last filling's entries and marks cleared.
void FlowNetwork::clear_listing() {
  for (ResourceId r : listed_resources_) entries_[r].clear();
  for (ResourceId r : changed_) listed_[r] = 0;  // left marked by a filling that split groups
  changed_.clear();
  listed_resources_.clear();
}

void FlowNetwork::list_entries(bool with_shared) {
  clear_listing();
  const std::size_t nr = resources_.size(), nf = flows_.size();
  entries_.resize(nr);
  saturating_mark_.resize(nr);
  weight_sum_.resize(nr);
  frozen_sum_.resize(nr);
  level_.resize(nr);
  listed_.resize(nr);
  full_.resize(nf);
  held_members_.resize(nf);
  cap_.resize(nf);
  live_.clear();
  min_cap_ = kInf;
  auto add = [&](ResourceId r, Entry e, Quanta q) {
    if (!listed_[r]) {
      listed_[r] = 1, listed_resources_.push_back(r);
      weight_sum_[r].clear(), frozen_sum_[r].clear();
    }
    entries_[r].push_back(e);
    weight_sum_[r].add(q, e.times);
  };
  for (std::size_t i : scope_) {
    Flow& f = flows_[i];
    f.rate = 0;
    full_[i] = 0, held_members_[i] = 0;
    if (is_done(f)) continue;
    live_.push_back(i);
    cap_[i] = f.max_rate;
    min_cap_ = std::min(min_cap_, f.max_rate);
    auto flow = std::uint32_t(i), times = std::uint32_t(f.count());
    f.demands.for_each_indexed([&](const FlowDemand& d, std::size_t k) {
      if (d.weight > 0 && (with_shared || !hot_[std::size_t(d.resource)].shared))
        add(d.resource, {flow, times, false}, f.demand_quanta(k));
    });
    if (f.member_weight > 0)
      for (ResourceId m : f.members) add(m, {flow, 1, true}, member_quanta(f, m));
  }
  // A resource whose weights round to nothing takes no part.
  active_.clear();
  for (ResourceId r : listed_resources_) {
    listed_[r] = 0;
    if (weight_sum_[r].zero()) continue;
    active_.push_back(r);
    level_[r] = round_level(hot_[std::size_t(r)].scale / weight_sum_[r].value());  // nothing frozen yet
  }
}

double FlowNetwork::saturation(ResourceId r, double level) const {
  return std::max(level, round_level((hot_[std::size_t(r)].scale - frozen_sum_[r].value()) / weight_sum_[r].value()));
}

// Every resource at `level` saturates; the flows it holds freeze, with the flows at their cap. A
// group with some members held and others not is split (every such group, then false; a local
// refill only returns false).
bool FlowNetwork::freeze(double level, bool with_shared) {
  for (ResourceId r : active_) {
    if (level_[r] != level) continue;
    shared_saturated_ = shared_saturated_ || hot_[std::size_t(r)].shared;
    watched_saturations_ += hot_[std::size_t(r)].watched ? 1 : 0;
    saturating_mark_[r] = 1, saturating_.push_back(r);
    for (const Entry& e : entries_[r]) {
      if (e.member) ++held_members_[e.flow];
      else full_[e.flow] = 1;
    }
  }
  splits_.clear();
  std::size_t kept = 0;
  double min_cap = kInf;
  for (std::size_t i : live_) {
    bool full = full_[i] || cap_[i] <= level;
    std::uint32_t held = held_members_[i];
    full_[i] = 0, held_members_[i] = 0;
    if (!full && held > 0) {
      if (held < flows_[i].members.size()) {
        splits_.push_back(i);
        continue;
      }
      full = true;
    }
    if (!full) {
      live_[kept++] = i, min_cap = std::min(min_cap, cap_[i]);
      continue;
    }
    flows_[i].rate = level;
    unweigh(flows_[i], level, with_shared);
  }
  if (!splits_.empty()) {
    // A local refill splits nothing: the whole filling may not have to (a shared resource may
    // freeze the group whole first), and a split group costs every later filling its parts.
    if (with_shared)
      for (auto it = splits_.rbegin(); it != splits_.rend(); ++it) split_group(*it, saturating_mark_);
    for (ResourceId r : saturating_) saturating_mark_[r] = 0;
    saturating_.clear();
    return false;
  }
  for (ResourceId r : saturating_) saturating_mark_[r] = 0;
  saturating_.clear();
  live_.resize(kept);
  min_cap_ = min_cap;
  return true;
}

// A flow frozen at `level`: its weight leaves the unfrozen sums, its load joins the frozen ones.
void FlowNetwork::unweigh(const Flow& f, double level, bool with_shared) {
  auto take = [&](ResourceId r, double weight, Quanta q, std::size_t times) {
    weight_sum_[r].subtract(q, times);
    if (!weight_sum_[r].zero())  // else it leaves the filling: its frozen load is not needed
      frozen_sum_[r].add(WeightSum::quanta(level * weight * hot_[std::size_t(r)].unit), times);
    if (!listed_[r]) listed_[r] = 1, changed_.push_back(r);
  };
  std::size_t count = f.count();
  f.demands.for_each_indexed([&](const FlowDemand& d, std::size_t k) {
    if (d.weight > 0 && (with_shared || !hot_[std::size_t(d.resource)].shared))
      take(d.resource, d.weight, f.demand_quanta(k), count);
  });
  if (!(f.member_weight > 0)) return;
  // The members' frozen load: one term for every member of the first member's unit (the same
  // expression as take's), computed once.
  Quanta frozen = 0;
  bool have_frozen = false;
  for (ResourceId m : f.members) {
    weight_sum_[m].subtract(member_quanta(f, m), 1);
    if (!weight_sum_[m].zero()) {
      double unit = hot_[std::size_t(m)].unit;
      if (unit != f.member_unit) frozen_sum_[m].add(WeightSum::quanta(level * f.member_weight * unit), 1);
      else {
        if (!have_frozen) frozen = WeightSum::quanta(level * f.member_weight * f.member_unit), have_frozen = true;
        frozen_sum_[m].add(frozen, 1);
      }
    }
    if (!listed_[m]) listed_[m] = 1, changed_.push_back(m);
  }
}

// The resources whose sums changed this round: their new levels; those left without unfrozen
// weight leave the filling.
void FlowNetwork::relevel(double level) {
  bool emptied = false;
  for (ResourceId r : changed_) {
    listed_[r] = 0;
    if (weight_sum_[r].zero()) emptied = true;
    else level_[r] = saturation(r, level);
  }
  changed_.clear();
  if (emptied)
    active_.erase(std::remove_if(active_.begin(), active_.end(), [&](ResourceId r) { return weight_sum_[r].zero(); }),
                  active_.end());
}

}  // namespace hwsim
