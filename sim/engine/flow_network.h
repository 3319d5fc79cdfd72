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
// Plain C++ with no SystemC dependency: time is a double in seconds, advanced by the host.
// Deterministic: the same calls in the same order give bit-identical results. Rates are
// recomputed lazily, once after any number of starts and finishes at one instant.
#include <array>
#include <span>
#include <functional>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace hwsim {

using ResourceId = int;
using FlowId = std::int64_t;

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

  std::size_t size() const { return size_ + rest_.size(); }
  bool empty() const { return size() == 0; }

 private:
  std::array<FlowDemand, kInline> inline_{};
  std::size_t size_ = 0;
  std::span<const FlowDemand> rest_;  // demands beyond the fourth, owned by the caller
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

  // Moves time forward to `t` (>= now()); flows progress at their current rates.
  void advance_to(double t);

  // Absolute time at which the next active flow completes (infinity when none is active).
  double next_completion();

  struct Finished {
    FlowId id;
    std::function<void()> on_done;
  };
  // Removes and returns the flows finished at now() (in start order), with their callbacks.
  std::vector<Finished> take_finished_callbacks();
  // The same, ids only.
  std::vector<FlowId> take_finished();

  double now() const { return now_; }
  std::size_t active_flows() const { return flows_.size(); }
  double current_rate(FlowId id);
  // `headline` followed by every active flow (remaining bytes, rate, cap) and resource.
  std::string describe(const std::string& headline) const;

  // Bytes moved through a resource so far, and time it spent with any demand (busy), for stats.
  double bytes_through(ResourceId r) const { return resources_[r].bytes; }
  double busy_seconds(ResourceId r) const { return resources_[r].busy; }
  double capacity(ResourceId r) const { return resources_[r].capacity; }
  const std::string& name(ResourceId r) const { return resources_[r].name; }

 private:
  struct Resource {
    std::string name;
    double capacity;
    double bytes = 0;
    double busy = 0;
  };
  struct Flow {
    FlowId id;
    double remaining;
    double initial;
    double rate = 0;
    double max_rate;
    FlowDemands demands;
    std::function<void()> on_done;
  };
  void recompute_rates();
  void settle() { if (dirty_) recompute_rates(); }
  bool is_done(const Flow& f) const;

  bool dirty_ = false;  // flows changed since the rates were computed
  // Scratch space reused by recompute_rates().
  std::vector<double> spare_, weight_, load_;
  std::vector<char> frozen_;
  std::vector<ResourceId> touched_;

  std::vector<Resource> resources_;
  std::vector<Flow> flows_;
  FlowId next_id_ = 0;
  double now_ = 0;
};

}  // namespace hwsim
