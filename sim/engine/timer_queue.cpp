#include "sim/engine/timer_queue.h"

#include <cmath>

namespace hwsim {

TimerQueue::TimerQueue(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(on_wakeup);
  sensitive << wakeup_;
  dont_initialize();
}

void TimerQueue::after(double seconds, std::function<void()> callback) {
  // Deadlines live on the femtosecond grid, as sc_time does, so comparisons are exact.
  double when = std::ceil((sim_now() + std::max(0.0, seconds)) * 1e15) / 1e15;
  timers_.push(Timer{when, sequence_++, std::move(callback)});
  wakeup_.notify(sc_core::sc_time(std::max(0.0, std::round((timers_.top().when - sim_now()) * 1e15)),
                                  sc_core::SC_FS));
}

void TimerQueue::on_wakeup() {
  double now = sim_now();
  while (!timers_.empty() && timers_.top().when <= now + 0.5e-15) {
    auto callback = timers_.top().callback;
    timers_.pop();
    callback();
  }
  if (!timers_.empty())
    wakeup_.notify(sc_core::sc_time(std::max(0.0, std::round((timers_.top().when - now) * 1e15)),
                                    sc_core::SC_FS));
}

}  // namespace hwsim
