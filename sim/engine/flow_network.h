#pragma once
// Fluid bandwidth sharing: the timing core of every shared resource (HBM, L2, links).
//
// A resource has a capacity in bytes/s. A flow moves a number of bytes; while active it runs at a
// rate set by max-min fairness (progressive filling) over every resource it crosses, never above
// its own cap (the rate its producer/consumer could sustain alone, e.g. an SM's tensor cores or
// its bytes-in-flight limit). A flow crossing a resource with weight w consumes w × its rate
// there (an L2 miss fraction, for example). Rates are recomputed whenever a flow starts or ends,
// so contention is simulated, not assumed.
//
// Sums over flows (a resource's summed weight, the bytes through it) are exact and independent
// of the order of the flows (ExactSum): the rates and byte counts are those of the set of flows,
// and a group of alike flows gives the same figures as its members in any order.
//
// Plain C++ with no SystemC dependency: time is a double in seconds, advanced by the host.
// Deterministic: the same calls in the same order give bit-identical results. Rates are
// recomputed lazily, once after any number of starts and finishes at one instant.
#include <array>
#include <span>
#include <functional>
#include <cstdint>
#include <memory>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/exact_sum.h"

namespace hwsim {

using ResourceId = int;
using FlowId = std::int64_t;
using TallyId = int;

struct FlowDemand {
  ResourceId resource;
  double weight;  // bytes consumed at `resource` per byte of flow progress
};

// The resources a flow crosses, any number of them. Up to four are kept inline, so the common
// flow (an SM, L2, HBM) stays trivially copyable: flows are created by the million. A longer
// route (a path over many links) keeps its first four inline and refers to the rest in storage
// the caller owns (a topology's route table), which must outlive the flows started with it.
class FlowDemands {
 public:
  static constexpr std::size_t kInline = 4;
  FlowDemands() = default;
  FlowDemands(std::initializer_list<FlowDemand> list) {
    for (const auto& d : list) push_back(d);
  }
  explicit FlowDemands(std::span<const FlowDemand> route) {
    for (std::size_t i = 0; i < route.size() && i < kInline; ++i) push_back(route[i]);
    if (route.size() > kInline) rest_ = route.subspan(kInline);
  }
  // Adds an inline demand: at most kInline (a longer route is given as a span).
  void push_back(const FlowDemand& d) {
    if (size_ == kInline || !rest_.empty()) throw std::logic_error("FlowDemands: a route of more than 4 resources is given as a span");
    inline_[size_++] = d;
  }

  // Calls f(demand) for each demand, inline ones first: the hot loops' way (no per-element branch).
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < size_; ++i) f(inline_[i]);
    for (const auto& d : rest_) f(d);
  }
  // The same, with each demand's position: f(demand, index).
  template <class F>
  void for_each_indexed(F&& f) const {
    for (std::size_t i = 0; i < size_; ++i) f(inline_[i], i);
    for (std::size_t i = 0; i < rest_.size(); ++i) f(rest_[i], kInline + i);
  }

  std::size_t size() const { return size_ + rest_.size(); }
  bool empty() const { return size() == 0; }
  // The same resources with the same weights, in the same order.
  bool operator==(const FlowDemands& o) const {
    if (size_ != o.size_ || rest_.size() != o.rest_.size()) return false;
    for (std::size_t i = 0; i < size_; ++i)
      if (inline_[i].resource != o.inline_[i].resource || inline_[i].weight != o.inline_[i].weight) return false;
    for (std::size_t i = 0; i < rest_.size(); ++i)
      if (rest_[i].resource != o.rest_[i].resource || rest_[i].weight != o.rest_[i].weight) return false;
    return true;
  }

 private:
  std::array<FlowDemand, kInline> inline_{};
  std::size_t size_ = 0;
  std::span<const FlowDemand> rest_;  // demands beyond the fourth, owned by the caller
};

// The members of a group flow (FlowNetwork::start_group): `members.size()` flows that are the same
// in everything (bytes, cap, the resources in `demands` and their weights) except one private
// resource each (an SM), crossed at `weight`. They run as one flow for as long as they stay
// alike, with the arithmetic the separate flows would do, in their order; a group whose members'
// private resources would treat them differently is split into its members first, so results
// are bit for bit those of the separate flows. The span is owned by the caller and must outlive
// the flow.
struct FlowMembers {
  std::span<const ResourceId> members;
  double weight = 0;
  std::size_t first = 0;  // the index callbacks give members[0] (members[i] is first + i)
};

struct FlowSpec {
  double bytes = 0;                                          // flow size (progress units)
  double max_rate = std::numeric_limits<double>::infinity(); // bytes/s the flow can sustain alone
  FlowDemands demands;                                       // resources crossed
};

class FlowNetwork {
 public:
  ResourceId add_resource(std::string name, double capacity_bytes_per_s);
  // Changes a resource's capacity from now() on (a clock change); flows already crossing it take
  // their new rates at the next recomputation. The host advances to the current time first.
  void set_capacity(ResourceId r, double capacity_bytes_per_s);

  // Starts a flow at the current time; returns its id. `on_done` travels with the flow and is
  // handed back by take_finished().
  FlowId start(FlowSpec spec, std::function<void()> on_done = {});
  // Called with [begin, end): the members that finished, as group.first + their index in
  // group.members. A group finishes whole, unless it had to be split (FlowMembers), then in parts.
  using MembersDone = std::function<void(std::size_t begin, std::size_t end)>;
  // Starts group.members.size() (≥ 1) alike flows at once, as if started one after another.
  FlowId start_group(FlowSpec spec, FlowMembers group, MembersDone on_done);

  // Moves time forward to `t` (>= now()); flows progress at their current rates.
  void advance_to(double t);

  // Absolute time at which the next active flow completes (infinity when none is active).
  double next_completion();

  struct Finished {
    FlowId id;
    std::function<void()> on_done;
    MembersDone on_members;  // a group's, called with [begin, end)
    std::size_t begin = 0, end = 0;
    void operator()() const {
      if (on_members) on_members(begin, end);
      else if (on_done) on_done();
    }
  };
  // Removes and returns the flows finished at now() (in start order), with their callbacks.
  std::vector<Finished> take_finished_callbacks();
  // The same into `out` (cleared first; its storage is reused).
  void take_finished_callbacks(std::vector<Finished>& out);
  // The same, ids only.
  std::vector<FlowId> take_finished();

  double now() const { return now_; }
  // Flows running, a group's members each counted.
  std::size_t active_flows() const;
  double current_rate(FlowId id);
  // `headline` followed by every active flow (remaining bytes, rate, cap) and resource.
  std::string describe(const std::string& headline) const;

  // Bytes moved through a resource so far (a finished flow counts its whole size), and time it
  // spent with any demand (busy), for stats.
  double bytes_through(ResourceId r) const;
  // A tally: resources whose bytes are read together (a device's compute units, its cache
  // slices), kept summed as flows finish. A resource is in one tally at most.
  TallyId add_tally(std::span<const ResourceId> resources);
  // The bytes through each tally's resources so far, in one pass over the live flows: out[k]
  // for tallies[k].
  void tally_bytes(std::span<const TallyId> tallies, std::span<double> out) const;
  double busy_seconds(ResourceId r) const { return resources_[r].busy; }
  double capacity(ResourceId r) const { return resources_[r].capacity; }
  const std::string& name(ResourceId r) const { return resources_[r].name; }

 private:
  // Bytes through a resource: to 2^-56 of a byte (an SM's "bytes" are seconds of its time), terms
  // of up to 2^48 bytes each; a run may move 2^70 bytes through one resource.
  using ByteSum = ExactSum<56, 22>;
  // A resource's summed weight, in units of its first capacity (weight × unit: ~1e-12 per byte/s
  // on an SM or a memory level alike): to 2^-94, terms up to 2^16, each taken up to 2^16 times at
  // once (a group's members).
  using WeightSum = ExactSum<94, 16>;
  using Quanta = WeightSum::Quanta;
  struct Resource {
    std::string name;
    double capacity;
    double unit;         // 1 ÷ its capacity when added (1 when it had none): the unit of its weights
    ByteSum finished;    // bytes of the flows that finished
    double busy = 0;
    TallyId tally;       // the tally it is in, or -1
  };
  struct Flow {
    FlowId id;
    double remaining;
    double initial;
    double rate = 0;
    double max_rate;
    FlowDemands demands;
    std::function<void()> on_done;
    // A group: its members' private resources, the weight on each, the index callbacks give
    // members[0], and the group's callback (copied to each part once split).
    std::span<const ResourceId> members;
    double member_weight = 0;
    std::size_t member_begin = 0;
    MembersDone on_members;
    // Its weights in each resource's unit, as WeightSum terms: its demands' (the first kInline
    // inline, the rest in rest_quanta) and its members' (member_quanta).
    std::array<Quanta, FlowDemands::kInline> quanta{};
    std::vector<Quanta> rest_quanta;
    Quanta member_quanta = 0;  // on a resource of unit member_unit (a member elsewhere: member_quanta())
    double member_unit = 0;
    Quanta demand_quanta(std::size_t k) const { return k < quanta.size() ? quanta[k] : rest_quanta[k - quanta.size()]; }
    // How many flows it stands for: each of its demands counts this many times.
    std::size_t count() const { return members.empty() ? 1 : members.size(); }
  };
  void quantize(Flow& f) const;  // its weights as WeightSum terms (at its start)
  Quanta member_quanta(const Flow& f, ResourceId m) const;  // its member on `m`'s term
  void finish_bytes(const Flow& f);  // a finished flow's bytes, into its resources' totals
  // Calls add(resource, bytes, times) for each live flow's progress on each resource it crosses.
  template <class F>
  void for_each_progress(F&& add) const {
    for (const auto& f : flows_) {
      double moved = f.initial - f.remaining;
      if (moved == 0) continue;
      std::size_t count = f.count();
      f.demands.for_each([&](const FlowDemand& d) { add(d.resource, moved * d.weight, count); });
      for (ResourceId m : f.members) add(m, moved * f.member_weight, std::size_t(1));
    }
  }
  void list_busy();  // the resources flows now load (busy_)
  void recompute_rates();
  // One pass of progressive filling; false when a group had to be split (then run it again).
  bool fill_rates();
  // Lists, per resource, the entries of the flows still running (in flow order), their sums and
  // the resources that take part; every flow's rate starts at 0.
  void list_entries();
  // Marks the live flows a saturated resource freezes (full_) or whose members it holds back.
  void mark_saturated(double step);
  enum class Verdicts { done, continuing, split };
  // Freezes the flows that reached their cap or a saturated resource at rate `level`.
  Verdicts freeze(double level, double step);
  // Takes the flow frozen now out of the summed weights of the resources it crosses.
  void unweigh(const Flow& f);
  // The resources whose summed weight changed this round take their new weight; those left with
  // none leave the filling.
  void resum_dirty();
  void split_group(std::size_t i);  // replaces group flows_[i] by its members, one flow each, in order
  void settle() { if (dirty_) recompute_rates(); }
  bool is_done(const Flow& f) const;

  bool dirty_ = false;  // flows changed since the rates were computed
  // Scratch space of the filling, reused. An entry is a live flow's load on one resource: a shared
  // demand (added `times` = the group's count times) or one member's private resource.
  struct Entry {
    std::uint32_t flow;
    std::uint32_t times : 31;
    std::uint32_t member : 1;
    double weight;
  };
  std::vector<std::vector<Entry>> entries_;  // per resource (frozen flows' stay until the next listing)
  std::vector<WeightSum> weight_sum_;        // per resource: the unfrozen flows' weights, in its unit
  std::vector<double> spare_, weight_;       // weight_: weight_sum_'s value ÷ the resource's unit
  std::vector<char> saturated_;            // an active resource's spare is used up (this round)
  std::vector<char> listed_;               // resource in active_ (while listing) / in changed_
  std::vector<ResourceId> active_, changed_;  // resources live flows cross with weight; those that lost one
  std::vector<ResourceId> listed_resources_;  // every resource listed (their entries are cleared next time)
  std::vector<std::size_t> live_;          // unfrozen flows, in flow order
  std::vector<char> frozen_;               // per flow: its rate is settled (this filling)
  std::vector<double> cap_;                // per flow: its cap (max_rate), kept beside the flags
  std::vector<char> full_;                 // per flow: crosses a resource saturated this round
  std::vector<std::uint32_t> held_members_;  // per flow: members on resources saturated this round
  double min_cap_ = 0;                     // the least cap of a live flow

  std::vector<Resource> resources_;
  std::vector<ResourceId> busy_;           // resources with a flow on them at a rate (since the rates)
  std::vector<char> busy_mark_;            // scratch of list_busy and list_entries
  std::vector<ResourceId> weighted_;       // resources live flows cross with weight (list_entries)
  std::vector<ByteSum> tallies_;           // each tally's finished bytes
  mutable std::vector<std::uint32_t> tally_slot_;  // scratch of tally_bytes
  mutable std::vector<ByteSum> tally_sums_;
  std::vector<Flow> flows_;
  FlowId next_id_ = 0;
  double now_ = 0;
};

}  // namespace hwsim
