#pragma once
// Lazy timers (riscv-vp style): components ask for a callback after a delay; one SC_METHOD sleeps
// until the earliest deadline. Callbacks run in SC_METHOD context (they must not wait()).
// Equal deadlines fire in the order they were requested, so runs are deterministic.
#include <functional>
#include <limits>
#include <queue>
#include <vector>

#include "sim/engine/systemc.h"

namespace hwsim {

class TimerQueue : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TimerQueue);
  explicit TimerQueue(sc_core::sc_module_name name);
  void after(double seconds, std::function<void()> callback);
  // With no timer pending: deadlines are reckoned from now on (the same bits at any absolute
  // time: FlowHost::restart); false (nothing changes) while a timer is pending.
  bool restart();
  bool idle() const { return timers_.empty(); }

 private:
  // The heap holds small keys; callbacks wait in slots (reused through a free list), so heap
  // operations move 24 bytes instead of std::function objects.
  struct Timer {
    double when;
    std::uint64_t sequence;
    std::uint32_t slot;
    bool operator>(const Timer& o) const {
      return when != o.when ? when > o.when : sequence > o.sequence;
    }
  };
  void on_wakeup();  // SC_METHOD: fire_due(), a failure handed to fail_simulation()
  void fire_due();   // runs the callbacks due now, re-arms for the next deadline
  void arm(double now);  // notifies the wake-up for the earliest deadline, unless it already is
  double now() const { return seconds_of(sc_core::sc_time_stamp() - origin_); }  // since the origin
  sc_core::sc_time origin_ = sc_core::SC_ZERO_TIME;
  static constexpr double kNotArmed = std::numeric_limits<double>::infinity();
  double armed_for_ = kNotArmed;  // the deadline wakeup_ is notified for
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::vector<std::function<void()>> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t sequence_ = 0;
  sc_core::sc_event wakeup_;
};

}  // namespace hwsim
