// The governor's target clock (DvfsGovernor::target) comes from a table of its clock steps, a
// binary search for the highest step within the limit, instead of a 50-step bisection of the power
// law followed by quantising: the same clock, for H100's power law (exponent 1.5, 15 MHz steps),
// over powers that sweep every step from below the min clock to above the max, including powers
// placed within 1e-7 of the limit at a step (where the table leaves it to the bisection), and for a
// min clock that is no whole step (the table does not apply: the bisection answers).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "models/gpu/power/dvfs_governor.h"

using namespace hwsim;

namespace {

GpuPowerParams h100_like(double min_clock = 345e6) {
  GpuPowerParams p;
  p.limit = 700, p.idle = 128, p.idle_floor = 75.4, p.energy_exponent = 1.5;
  p.max_clock = p.reference_clock = 1980e6, p.min_clock = min_clock, p.clock_step = 15e6, p.window = 14e-3;
  return p;
}

// The rule the table stands for: bisect the power law, then floor to a whole step.
double bisected(const GpuPowerParams& p, double core, double memory) {
  auto power = [&](double f) { return p.static_watts(f) + core * p.power_scale(f) + memory; };
  if (power(p.max_clock) <= p.limit) return p.max_clock;
  double lo = p.min_clock, hi = p.max_clock;
  if (power(lo) >= p.limit) return p.min_clock;
  for (int i = 0; i < 50; ++i) {
    double mid = 0.5 * (lo + hi);
    (power(mid) > p.limit ? hi : lo) = mid;
  }
  return std::clamp(std::floor(lo / p.clock_step + 1e-9) * p.clock_step, p.min_clock, p.max_clock);
}

void check_sweep(const GpuPowerParams& p) {
  DvfsGovernor g(p);
  int checked = 0;
  for (double memory : {0.0, 150.0, 400.0})
    for (double core = 0; core < 3000; core += 0.37, ++checked) {
      INFO("core " << core << " W, memory " << memory << " W");
      REQUIRE(g.target(core, memory) == bisected(p, core, memory));
    }
  // The core power that puts each step's power exactly at the limit, and a hair either side.
  for (double k = std::ceil(p.min_clock / p.clock_step); k * p.clock_step <= p.max_clock; k += 1) {
    double f = k * p.clock_step;
    double core = (p.limit - p.static_watts(f) - 100) / p.power_scale(f);
    if (core < 0) continue;
    for (double nudge : {-1e-7, -1e-12, 0.0, 1e-12, 1e-7}) {
      double c = core * (1 + nudge);
      INFO("step " << f / 1e6 << " MHz, nudge " << nudge);
      REQUIRE(g.target(c, 100) == bisected(p, c, 100));
      ++checked;
    }
  }
  CHECK(checked > 20000);
}

}  // namespace

TEST_CASE("dvfs target: the step table gives the bisection's clock over every step") { check_sweep(h100_like()); }

TEST_CASE("dvfs target: a min clock between steps falls back to the bisection, the same clocks") {
  check_sweep(h100_like(350e6));
}
