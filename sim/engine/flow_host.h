#pragma once
// SystemC host of a FlowNetwork: components start flows with a completion callback. The host
// sleeps until the next completion; nothing ticks. Callbacks run in SC_METHOD context.
#include <functional>
#include <utility>
#include <vector>

#include "sim/engine/flow_network.h"
#include "sim/engine/systemc.h"

namespace hwsim {

class FlowHost : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FlowHost);
  explicit FlowHost(sc_core::sc_module_name name);

  FlowNetwork& network() { return network_; }
  // The network's time: seconds since the origin (the start of the simulation unless restarted).
  double now() const { return seconds_of(sc_core::sc_time_stamp() - origin_); }
  // With no flow live: the origin moves to now and the network restarts (FlowNetwork::restart), so
  // what follows is computed in times and sums measured from here, the same bits at any absolute
  // time; false (nothing changes) while a flow is live.
  bool restart();

  // Starts a flow now; `on_done` runs when it completes.
  void start(FlowSpec spec, std::function<void()> on_done);
  // Changes resource capacities now (flows progress at the old rates up to now): each (resource,
  // capacity) pair; completions are rescheduled once.
  void set_capacities(const std::vector<std::pair<ResourceId, double>>& capacities);
  // Starts a group of alike flows now (FlowNetwork::start_group); `on_done(begin, end)` runs for
  // the members that completed.
  void start_group(FlowSpec spec, FlowMembers group, FlowNetwork::MembersDone on_done);

 private:
  void on_wakeup();   // SC_METHOD: finish_due(), a failure handed to fail_simulation()
  void finish_due();  // runs the callbacks of the flows finished now, reschedules
  void reschedule();
  void wake_in_this_instant();  // rates are recomputed once, in the next delta cycle

  FlowNetwork network_;
  sc_core::sc_event wakeup_;
  bool delta_pending_ = false;  // wakeup_ is notified for the next delta cycle
  std::vector<FlowNetwork::Finished> finished_;  // reused by finish_due
  sc_core::sc_time origin_ = sc_core::SC_ZERO_TIME;
  double last_wakeup_ = -1;
  int wakeups_without_progress_ = 0;
};

}  // namespace hwsim
