// The power governor (models/gpu/power/dvfs_governor): below the limit the clock stays at its max;
// above it the steady clock is the highest clock step whose power is within the limit, whether
// the work's rate follows the clock or not; a cold start lowers the clock over about a window.
// Expected clocks are solved by hand from the linear power law of these parameters.
#include <doctest/doctest.h>

#include <cmath>

#include "models/gpu/power/dvfs_governor.h"

using namespace hwsim;

namespace {
// exponent 0: static and SM-domain power are linear in the clock, so the steady clock has a
// closed form. 1000 MHz max, 10 MHz steps, 100 W limit, idle 40 W of which 20 W does not scale.
GpuPowerParams linear_params(bool sustained = true) {
  GpuPowerParams p;
  p.limit = 100, p.idle = 40, p.idle_floor = 20, p.energy_exponent = 0;
  p.max_clock = p.reference_clock = 1000e6, p.min_clock = 10e6, p.clock_step = 10e6, p.window = 10e-3, p.sustained = sustained;
  return p;
}

// A plant: work drawing `core_at_max` watts in the SM domain at the max clock and `memory` watts
// elsewhere; `follows_clock`: its rate follows the clock (compute-bound), else it does not.
double run(DvfsGovernor& g, const GpuPowerParams& p, double core_at_max, double memory, bool follows_clock,
           double seconds, double dt = 1e-4) {
  for (double t = 0; t < seconds; t += dt) {
    double f = g.clock();
    double scale = follows_clock ? p.power_scale(f) : p.energy_scale(f);
    g.observe(dt, core_at_max * scale * dt, memory * dt);
  }
  return g.clock();
}

double power(const GpuPowerParams& p, double core_at_max, double memory, bool follows_clock, double f) {
  double scale = follows_clock ? p.power_scale(f) : p.energy_scale(f);
  return p.static_watts(f) + core_at_max * scale + memory;
}
}  // namespace

TEST_CASE("governor: below the limit the clock stays at its max") {
  GpuPowerParams p = linear_params();
  DvfsGovernor g(p);
  // 40 W idle + 50 W + 5 W = 95 W < 100 W at 1000 MHz.
  CHECK(run(g, p, 50, 5, true, 0.1) == doctest::Approx(1000e6));
  CHECK_FALSE(g.throttled());
}

TEST_CASE("governor: compute-bound work settles on the highest clock step within the limit") {
  GpuPowerParams p = linear_params();
  DvfsGovernor g(p);
  // P(f) = 20 + (20 + 140) f/1000 MHz = 100 W  →  f = 80/160 × 1000 MHz = 500 MHz exactly.
  double f = run(g, p, 140, 0, true, 0.1);
  CHECK(f == doctest::Approx(500e6));
  CHECK(g.throttled());
  // With 10 W outside the SM domain: 20 + 160 f/fmax + 10 = 100 → f = 437.5 MHz → 430 MHz.
  DvfsGovernor h(p);
  CHECK(run(h, p, 140, 10, true, 0.1) == doctest::Approx(430e6));
}

TEST_CASE("governor: work whose rate does not follow the clock settles within the limit too") {
  GpuPowerParams p = linear_params();
  p.energy_exponent = 1;  // memory-bound: power falls only as the energy per operation, f/fmax
  DvfsGovernor g(p);
  double f = run(g, p, 200, 0, false, 0.5);
  CHECK(power(p, 200, 0, false, f) <= p.limit + 1e-9);
  CHECK(power(p, 200, 0, false, f + p.clock_step) > p.limit);  // and never lower than it must
}

TEST_CASE("governor: without a limit it never throttles") {
  GpuPowerParams p = linear_params();
  p.limit = 0;
  DvfsGovernor g(p);
  CHECK(run(g, p, 5000, 500, true, 0.05) == doctest::Approx(1000e6));
}

TEST_CASE("governor: a cold start lowers the clock over about a window, a sustained one at once") {
  GpuPowerParams p = linear_params(false);
  DvfsGovernor cold(p);
  // After 1 ms of a 10 ms window the idle history still weighs 1 - 1/e^0.1 ≈ 90 %: the averaged
  // core power is about 14 W of 140, well within the limit, so the clock is still at its max.
  CHECK(run(cold, p, 140, 0, true, 1e-3) == doctest::Approx(1000e6));
  // After 10 windows the history is gone: the steady 500 MHz.
  CHECK(run(cold, p, 140, 0, true, 0.1) == doctest::Approx(500e6));
  DvfsGovernor sustained(linear_params(true));
  CHECK(run(sustained, p, 140, 0, true, 1e-3) == doctest::Approx(500e6));
}
