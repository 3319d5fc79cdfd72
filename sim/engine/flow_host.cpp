#include "sim/engine/flow_host.h"

#include <cmath>

namespace hwsim {

FlowHost::FlowHost(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(on_wakeup);
  sensitive << wakeup_;
  dont_initialize();
}

void FlowHost::start(const FlowSpec& spec, std::function<void()> on_done) {
  network_.advance_to(sim_now());
  FlowId id = network_.start(spec);
  waiters_[id] = std::move(on_done);
  reschedule();
}

void FlowHost::on_wakeup() {
  network_.advance_to(sim_now());
  for (FlowId id : network_.take_finished()) {
    auto it = waiters_.find(id);
    auto callback = std::move(it->second);
    waiters_.erase(it);
    callback();
  }
  reschedule();
}

void FlowHost::reschedule() {
  double next = network_.next_completion();
  wakeup_.cancel();
  if (!std::isfinite(next)) return;
  double delay = std::max(0.0, next - sim_now());
  // Round up to the resolution so the flow is surely finished when we wake.
  wakeup_.notify(sc_core::sc_time(std::ceil(delay * 1e15), sc_core::SC_FS));
}

}  // namespace hwsim
