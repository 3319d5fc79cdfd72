#include "sim/engine/flow_host.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace hwsim {

FlowHost::FlowHost(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(on_wakeup);
  sensitive << wakeup_;
  dont_initialize();
}

void FlowHost::wake_in_this_instant() {
  // However many flows start now, one wake-up in the next delta cycle (it replaces a timed one).
  if (delta_pending_) return;
  wakeup_.cancel();
  wakeup_.notify(sc_core::SC_ZERO_TIME);
  delta_pending_ = true;
}

void FlowHost::start(FlowSpec spec, std::function<void()> on_done) {
  network_.advance_to(now());
  network_.start(std::move(spec), std::move(on_done));
  wake_in_this_instant();
}

void FlowHost::start_group(FlowSpec spec, FlowMembers group, FlowNetwork::MembersDone on_done) {
  network_.advance_to(now());
  network_.start_group(std::move(spec), group, std::move(on_done));
  wake_in_this_instant();
}

void FlowHost::set_capacities(const std::vector<std::pair<ResourceId, double>>& capacities) {
  network_.advance_to(now());
  for (const auto& [resource, capacity] : capacities) network_.set_capacity(resource, capacity);
  wakeup_.cancel();
  wakeup_.notify(sc_core::SC_ZERO_TIME);
}

bool FlowHost::restart() {
  if (network_.active_flows() > 0) return false;
  network_.restart();
  origin_ = sc_core::sc_time_stamp();
  last_wakeup_ = -1, wakeups_without_progress_ = 0;
  return true;
}

void FlowHost::on_wakeup() {
  delta_pending_ = false;
  try {
    finish_due();
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

void FlowHost::finish_due() {
  double now = this->now();
  network_.advance_to(now);
  network_.take_finished_callbacks(finished_);
  // A wake-up that finishes nothing at the same instant as the last one means the completion
  // time cannot be represented: a bug, reported rather than spun on.
  if (finished_.empty() && now == last_wakeup_) {
    if (++wakeups_without_progress_ > 1000)
      throw std::logic_error(network_.describe("flow network makes no progress at t=" + std::to_string(now)));
  } else {
    wakeups_without_progress_ = 0;
  }
  last_wakeup_ = now;
  // Callbacks may start flows (not finish any): the list is not touched while they run.
  for (auto& done : finished_) done();
  reschedule();
}

void FlowHost::reschedule() {
  double next = network_.next_completion();
  wakeup_.cancel();
  delta_pending_ = false;
  if (!std::isfinite(next)) return;
  double delay = std::max(0.0, next - now());
  require_in_range(next);
  // Round up to the resolution so the flow is surely finished when we wake.
  wakeup_.notify(sc_core::sc_time(std::ceil(delay * 1e15), sc_core::SC_FS));
}

}  // namespace hwsim
