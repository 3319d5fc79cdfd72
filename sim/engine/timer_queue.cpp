#include "sim/engine/timer_queue.h"

#include <cmath>

namespace hwsim {

TimerQueue::TimerQueue(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(on_wakeup);
  sensitive << wakeup_;
  dont_initialize();
}

void TimerQueue::after(double seconds, std::function<void()> callback) {
  double now = this->now();
  require_in_range(now + seconds);
  // Deadlines live on the femtosecond grid, as sc_time does, so comparisons are exact.
  double when = std::ceil((now + std::max(0.0, seconds)) * 1e15) / 1e15;
  std::uint32_t slot;
  if (free_slots_.empty()) {
    slot = std::uint32_t(slots_.size());
    slots_.push_back(std::move(callback));
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot] = std::move(callback);
  }
  timers_.push(Timer{when, sequence_++, slot});
  arm(now);
}

bool TimerQueue::restart() {
  if (!timers_.empty()) return false;
  origin_ = sc_core::sc_time_stamp();
  armed_for_ = kNotArmed;
  return true;
}

// The wake-up is notified only when the earliest deadline moved earlier: a pending notification
// for the same deadline would win anyway (the earliest notification of an event stands).
void TimerQueue::arm(double now) {
  double first = timers_.top().when;
  if (first >= armed_for_) return;
  armed_for_ = first;
  wakeup_.notify(sc_core::sc_time(std::max(0.0, std::round((first - now) * 1e15)), sc_core::SC_FS));
}

void TimerQueue::on_wakeup() {
  try {
    fire_due();
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

void TimerQueue::fire_due() {
  armed_for_ = kNotArmed;  // the notification that woke us is spent
  double now = this->now();
  while (!timers_.empty() && timers_.top().when <= now + 0.5e-15) {
    std::uint32_t slot = timers_.top().slot;
    timers_.pop();
    auto callback = std::move(slots_[slot]);
    free_slots_.push_back(slot);
    callback();
  }
  if (!timers_.empty()) arm(now);
}

}  // namespace hwsim
