#pragma once
// The one place that includes SystemC, with the project's conventions:
//  - the time resolution is 1 fs, so clock periods that are not whole picoseconds (1.98 GHz)
//    stay exact enough; 2^64 fs is over five hours of simulated time;
//  - models keep time as double seconds or integer cycles internally and convert at the
//    SystemC boundary with to_sc_time()/seconds_of().
#include <exception>
#include <systemc>

namespace hwsim {

// The longest time the engine represents: 2^64 fs, about 5.1 hours of simulated time.
inline constexpr double kMaxSimulatedSeconds = 18446.0;

// Throws UserError(workload) when a delay of `seconds` is beyond the engine's range (a clock,
// bandwidth or rate in the chip file many orders of magnitude off), instead of wrapping around.
void require_in_range(double seconds);

// A failure raised inside a SystemC process (a UserError from lowering, an out-of-range delay) is
// handed to the caller of sc_start(): the first one is kept and the simulation stopped.
void fail_simulation(std::exception_ptr failure);
// After sc_start(): rethrows the kept failure, if any, as itself.
void rethrow_simulation_failure();

// Call once per process before building any module (idempotent).
void init_systemc();

inline sc_core::sc_time to_sc_time(double seconds) {
  require_in_range(seconds);
  return sc_core::sc_time(seconds * 1e15, sc_core::SC_FS);
}
// The same double as sc_time::to_seconds() at the 1 fs resolution (its value × 1 fs), without a
// call into the library per conversion: models ask for the time at every event.
inline double seconds_of(const sc_core::sc_time& t) { return double(t.value()) * 1e-15; }
inline double sim_now() { return seconds_of(sc_core::sc_time_stamp()); }

}  // namespace hwsim
