// GpuClockDomain's replays: a step or kernel recorded as the spans the governor observed runs alike
// from a governor that sets the same clocks on them (replay), or — a kernel no clocked resource
// limited — clocks at least those (replay_at_clocks), its spans priced again at them.
#include "models/gpu/power/clock_domain.h"

namespace hwsim {

bool GpuClockDomain::replay(const Recording& r) {
  if (kernel_) return false;
  const Observation gap = pending();
  DvfsGovernor g = governor_;
  if (gap.seconds > 0) g.observe(gap.seconds, gap.core_joules, gap.memory_joules);
  if (g.clock() != r.start_clock) return false;
  for (const Observation& o : r.observed)
    if (g.observe(o.seconds, o.core_joules, o.memory_joules) != o.clock) return false;
  const double before = governor_.clock();
  if (gap.seconds > 0) update();  // the gap, observed for real (a step recording in progress takes it)
  governor_ = g;  // the counters restart when the step's time has passed (replayed)
  for (Recording* into : recording_)
    if (into) into->observed.insert(into->observed.end(), r.observed.begin(), r.observed.end());
  if (governor_.clock() != before) apply_clock(governor_.clock());
  return true;
}

bool GpuClockDomain::replay_at_clocks(const Recording& r, KernelPower& power) {
  if (kernel_ || !r.repriceable || r.spans.size() != r.observed.size()) return false;
  const Observation gap = pending();
  DvfsGovernor g = governor_;
  if (gap.seconds > 0) g.observe(gap.seconds, gap.core_joules, gap.memory_joules);
  double recorded = r.start_clock, clock = g.clock();
  if (clock < recorded) return false;
  KernelSpan span;
  repriced_.clear();
  for (std::size_t i = 0; i < r.spans.size(); ++i) {
    repriced_.push_back(price_span(g, r.spans[i], &r.kernel, &span));
    if (i + 1 == r.spans.size()) break;  // the clock set after the kernel's last span runs what follows
    const double next = repriced_.back().clock, next_recorded = r.observed[i].clock;
    if (next < next_recorded || (next != clock) != (next_recorded != recorded)) return false;
    clock = next, recorded = next_recorded;
  }
  const double before = governor_.clock();
  if (gap.seconds > 0) update();  // the gap, observed for real (a step recording in progress takes it)
  governor_ = g;  // the counters restart when the kernel's time has passed (replayed)
  for (Recording* into : recording_)
    if (into) into->observed.insert(into->observed.end(), repriced_.begin(), repriced_.end());
  if (governor_.clock() != before) apply_clock(governor_.clock());
  power = price_kernel(r.kernel, span, governor_.clock());
  return true;
}

}  // namespace hwsim
