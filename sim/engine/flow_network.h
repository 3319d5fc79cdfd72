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
// The filling (flow_filling.cpp) rises in levels: the level at which a resource saturates is
// computed directly, (capacity − the load of the flows already frozen) ÷ the weight of those
// still rising, never by accumulated steps, and every resource at the lowest level saturates at
// once. So a flow's rate depends only on the flows it is connected to through saturating
// resources, and a part of the network can be refilled alone (flow_local.cpp): a *shared*
// resource (a memory level many compute units cross) is left out of the parts refilled after a
// change, then checked; only when one would limit its flows does the whole network fill again.
// The rates are the same bits either way (tests/unit/u191, u193).
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
#include "sim/engine/stable_table.h"

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

// A resource's part in the filling. Local: refilled with the flows connected to it. Shared: left
// out of a local refill and checked after it (a memory level every compute unit crosses, seldom
// their limit); the rates do not depend on the choice, only the work does.
enum class ResourceScope { local, shared };

class FlowNetwork {
 public:
  ResourceId add_resource(std::string name, double capacity_bytes_per_s, ResourceScope scope = ResourceScope::local);
  // Changes a resource's capacity from now() on (a clock change); flows already crossing it take
  // their new rates at the next recomputation. The host advances to the current time first.
  void set_capacity(ResourceId r, double capacity_bytes_per_s);

  // Starts a flow at the current time; returns its id. `on_done` travels with the flow and is
  // handed back by take_finished().
  FlowId start(FlowSpec spec, std::function<void()> on_done = {});
  // Called with [begin, end): the members that finished, as group.first + their index in
  // group.members. A group finishes whole, unless it had to be split (FlowMembers), then in parts.
  using MembersDone = std::function<void(std::size_t begin, std::size_t end)>;
  // Starts group.members.size() (≥ 1) alike flows at once, as if started one after another. The
  // members' resources are local ones.
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
  // With no flow live: time restarts at 0, and every tally at 0 bytes (what a host measuring each
  // unit of work in its own frame needs: sums and times that do not carry the rounding of a
  // long history). Throws std::logic_error while a flow is live.
  void restart();
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
  double busy_seconds(ResourceId r) const { return hot_[std::size_t(r)].busy; }
  double capacity(ResourceId r) const { return resources_[r].capacity; }
  const std::string& name(ResourceId r) const { return resources_[r].name; }

  // Watched resources (a GPU's SMs, whose capacity follows its clock): how many times one of them
  // saturated in a filling whose rates were taken, so far. Over a span in which the count did not
  // grow, the rates were set by other resources and caps alone, so the same flows with any larger
  // capacities of the watched resources take the same rates, bit for bit (a resource that does not
  // saturate takes no part in a filling's outcome). Counted conservatively: a tie counts.
  void watch(ResourceId r) { hot_[std::size_t(r)].watched = true; }
  std::uint64_t watched_saturations() const { return watched_saturations_; }

  // How the rates were recomputed so far: fillings of the whole network, and local refills that
  // sufficed (flow_local.cpp).
  struct FillCounts {
    std::uint64_t whole = 0, local = 0;
  };
  const FillCounts& fill_counts() const { return fill_counts_; }
  // The same summed over every network of this process (one simulation per process).
  static FillCounts process_fill_counts();

  // Whether a change refills only the part of the network it reaches (the default); off, every
  // recomputation fills the whole network. The rates are the same bits either way (tested); the
  // switch is for that test. Process-wide; set it before a simulation starts.
  static void local_filling(bool on);

 private:
  // Bytes through a resource: to 2^-56 of a byte (an SM's "bytes" are seconds of its time), terms
  // of up to 2^48 bytes each; a run may move 2^70 bytes through one resource.
  using ByteSum = ExactSum<56, 22>;
  // A resource's summed weight, in units of its first capacity (weight × unit: ~1e-12 per byte/s
  // on an SM or a memory level alike): to 2^-94, terms up to 2^16, each taken up to 2^16 times at
  // once (a group's members). Its frozen flows' load (rate × weight × unit, a share of its first
  // capacity, at most its capacity's growth since) is summed the same way.
  using WeightSum = ExactSum<94, 16>;
  using Quanta = WeightSum::Quanta;
  // A shared resource's load at the flows' local rates (local refill), a share of its first
  // capacity: to 2^-80, terms up to 2^30 (a flow alone loading it past kOverload counts apart).
  using LoadSum = ExactSum<80, 16>;
  struct Resource {
    std::string name;
    double capacity;
    double unit;         // 1 ÷ its capacity when added (1 when it had none): the unit of its weights
    ByteSum finished;    // bytes of the flows that finished
    TallyId tally;       // the tally it is in, or -1
    std::vector<FlowId> flows;  // local: the live flows crossing it (their first ids, any weight),
                                // while the local rates are current
    LoadSum load;                // shared: the local rates' load on it
    std::uint32_t overloads = 0;  // shared: flows whose local rate alone overloads it
  };
  // What the hot loops read of a resource, packed apart (hot_, beside resources_).
  struct Hot {
    double scale;                // capacity × unit: its capacity now in its weights' unit
    double unit;
    double busy = 0;             // seconds with a flow on it at a rate
    std::uint32_t weighted = 0;  // shared: live flows crossing it with weight (a group once)
    bool shared = false;
    bool watched = false;        // watch()
  };
  struct Flow {
    FlowId id;
    double remaining;
    double initial;
    double done_below = 0;  // done when less remains (kDoneFraction of its bytes, or of one byte)
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
    // The local refill's state: its rate with the shared resources left out, and whether its
    // load at that rate is in the shared resources' sums; whether it counts in `weighted`.
    double local_rate = 0;
    bool loaded = false;
    bool counted = false;
    Quanta demand_quanta(std::size_t k) const { return k < quanta.size() ? quanta[k] : rest_quanta[k - quanta.size()]; }
    // How many flows it stands for: each of its demands counts this many times.
    std::size_t count() const { return members.empty() ? 1 : members.size(); }
  };
  void quantize(Flow& f) const;  // its weights as WeightSum terms (at its start)
  // Its member on `m`'s term: a member on a resource of another unit than the first member's
  // takes its own.
  Quanta member_quanta(const Flow& f, ResourceId m) const {
    double unit = hot_[std::size_t(m)].unit;
    return unit == f.member_unit ? f.member_quanta : WeightSum::quanta(f.member_weight * unit);
  }
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
  // Calls visit(resource, weight) for each resource f crosses: demands, then members.
  template <class F>
  static void for_each_resource(const Flow& f, F&& visit) {
    f.demands.for_each([&](const FlowDemand& d) { visit(d.resource, d.weight); });
    for (ResourceId m : f.members) visit(m, f.member_weight);
  }
  std::size_t index_of(FlowId id) const;  // flows_ is in id order
  void enter(Flow& f);         // a new flow into the local lists and the busy counts
  void leave(Flow& f);         // a flow done: out of the busy counts, its local resources dirty
  void forget(Flow& f);        // a flow removed: out of the local lists and the shared loads
  void count_weights(const Flow& f, int delta);  // its shared resources' `weighted`, and weighted_
  void set_weighted(ResourceId r, bool on);       // r into or out of weighted_
  void list_weighted_locals();                    // weighted_'s local resources, from a whole filling
  // f into its local resources' lists (a flow crossing none into loose_); `dirty`: a change, the
  // resources become dirty.
  void list_local(const Flow& f, bool dirty);
  void mark_dirty(ResourceId r);
  bool tracks_local() const { return !shared_.empty(); }  // a local refill can leave something out
  void list_busy();  // the resources flows now load (busy_)
  void recompute_rates();
  bool is_done(const Flow& f) const { return f.remaining <= f.done_below; }
  void settle() { if (dirty_) recompute_rates(); }
  // Replaces group flows_[i] by its parts, in order: each a run of consecutive members whose
  // resources are alike saturated or not (held[resource]), itself a group (or one flow).
  void split_group(std::size_t i, const std::vector<char>& held);

  // The filling (flow_filling.cpp). Fills the flows `scope_` (indices into flows_, ascending),
  // crossing the shared resources too when `with_shared`: each flow's rate; false when groups
  // had to be split (flows_ changed: list the scope again; a local refill splits none). shared_saturated_: a shared resource
  // limited a flow.
  bool fill(bool with_shared);
  bool fill_one();  // a whole filling of one flow, when one round does it (else false, nothing changed)
  void clear_listing();  // the last filling's entries and marks
  void list_entries(bool with_shared);  // per in-scope resource, its entries and summed weight
  bool freeze(double level, bool with_shared);  // false when groups were split
  void unweigh(const Flow& f, double level, bool with_shared);  // a flow frozen at `level`
  double saturation(ResourceId r, double level) const;  // the level at which r saturates (≥ level)
  void relevel(double level);  // the resources whose sums changed: their saturation levels
  void fill_all();  // every live flow, the shared resources included

  // The local refill (flow_local.cpp). Refills the parts of the network the dirty resources reach,
  // shared resources left out, updating the shared loads; false when a group would have to be
  // split (the whole network fills instead).
  bool refill_local();
  void gather_scope();  // scope_: the live flows connected to the dirty resources by local ones
  bool shared_limits() const;  // a shared resource would limit the local rates
  void load(Flow& f, int sign);  // f's load at its local rate, into (+1) or out of (−1) the sums
  void adopt_local();  // after a whole filling no shared resource limited: its rates are the local ones

  bool dirty_ = false;  // flows changed since the rates were computed
  FillCounts fill_counts_;
  std::uint64_t watched_saturations_ = 0;
  // Scratch space of the filling, reused. An entry is a live flow's load on one resource: a shared
  // demand (added `times` = the group's count times) or one member's private resource.
  struct Entry {
    std::uint32_t flow;
    std::uint32_t times : 31;
    std::uint32_t member : 1;
  };
  std::vector<std::vector<Entry>> entries_;  // per resource, entries with weight
  std::vector<WeightSum> weight_sum_, frozen_sum_;  // per resource: unfrozen weight; frozen load
  std::vector<double> level_;              // per resource: the level at which it saturates
  std::vector<char> listed_;               // resource in listed_resources_ / in changed_
  std::vector<ResourceId> active_, changed_;  // resources with unfrozen weight; those whose sums changed
  std::vector<ResourceId> listed_resources_;  // every resource listed (their entries are cleared next time)
  std::vector<std::size_t> scope_;         // the flows filled (indices, ascending)
  std::vector<std::size_t> live_;          // unfrozen flows of the scope, in flow order
  std::vector<double> cap_;                // per flow: its cap (max_rate), kept beside the flags
  double min_cap_ = 0;                     // the least cap of an unfrozen flow
  std::vector<char> full_;                 // per flow: crosses a resource saturated this round
  std::vector<std::uint32_t> held_members_;  // per flow: members on resources saturated this round
  std::vector<std::size_t> splits_;        // groups whose members part ways this round
  std::vector<char> saturating_mark_;      // per resource: saturates this round (freeze)
  std::vector<ResourceId> saturating_;     // those marked
  std::vector<std::size_t> part_of_;       // scratch of split_group: each member's part
  bool shared_saturated_ = false;

  // The local refill's state.
  bool local_valid_ = false;               // every flow's local rate and load are current
  std::vector<ResourceId> shared_;         // the shared resources
  std::vector<ResourceId> dirty_resources_;  // local resources whose flows or capacity changed
  std::vector<FlowId> loose_;              // flows started that cross no local resource
  std::vector<char> dirty_mark_, flow_mark_;  // scratch of gather_scope

  std::vector<Resource> resources_;
  std::vector<Hot> hot_;
  std::vector<ResourceId> busy_;           // resources with a flow on them at a rate (since the rates)
  bool all_running_ = true;                // every live flow has a rate: busy_ is weighted_
  std::vector<ResourceId> weighted_;       // resources live flows cross with weight (set_weighted)
  std::vector<std::uint32_t> weighted_at_;  // each resource's place in weighted_
  std::vector<char> busy_mark_;            // scratch of list_busy
  std::vector<ByteSum> tallies_;           // each tally's finished bytes
  mutable std::vector<std::uint32_t> tally_slot_;  // scratch of tally_bytes
  mutable std::vector<ByteSum> tally_sums_;
  StableTable<Flow> flows_;                // the live flows, in id order
  FlowId next_id_ = 0;
  double now_ = 0;
};

}  // namespace hwsim
