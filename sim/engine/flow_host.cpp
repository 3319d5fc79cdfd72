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

void FlowHost::start(FlowSpec spec, std::function<void()> on_done) {
  network_.advance_to(sim_now());
  network_.start(std::move(spec), std::move(on_done));
  // Rates are recomputed once, in the next delta cycle, however many flows start now.
  wakeup_.cancel();
  wakeup_.notify(sc_core::SC_ZERO_TIME);
}

void FlowHost::set_capacities(const std::vector<std::pair<ResourceId, double>>& capacities) {
  network_.advance_to(sim_now());
  for (const auto& [resource, capacity] : capacities) network_.set_capacity(resource, capacity);
  wakeup_.cancel();
  wakeup_.notify(sc_core::SC_ZERO_TIME);
}

void FlowHost::on_wakeup() {
  try {
    finish_due();
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

void FlowHost::finish_due() {
  network_.advance_to(sim_now());
  auto finished = network_.take_finished_callbacks();
  // A wake-up that finishes nothing at the same instant as the last one means the completion
  // time cannot be represented: a bug, reported rather than spun on.
  if (finished.empty() && sim_now() == last_wakeup_) {
    if (++wakeups_without_progress_ > 1000)
      throw std::logic_error(network_.describe("flow network makes no progress at t=" + std::to_string(sim_now())));
  } else {
    wakeups_without_progress_ = 0;
  }
  last_wakeup_ = sim_now();
  for (auto& done : finished)
    if (done.on_done) done.on_done();
  reschedule();
}

void FlowHost::reschedule() {
  double next = network_.next_completion();
  wakeup_.cancel();
  if (!std::isfinite(next)) return;
  double delay = std::max(0.0, next - sim_now());
  require_in_range(next);
  // Round up to the resolution so the flow is surely finished when we wake.
  wakeup_.notify(sc_core::sc_time(std::ceil(delay * 1e15), sc_core::SC_FS));
}

}  // namespace hwsim
