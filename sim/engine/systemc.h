#pragma once
// The one place that includes SystemC, with the project's conventions:
//  - the time resolution is 1 fs, so clock periods that are not whole picoseconds (1.98 GHz)
//    stay exact enough; 2^64 fs is over five hours of simulated time;
//  - models keep time as double seconds or integer cycles internally and convert at the
//    SystemC boundary with to_sc_time()/seconds_of().
#include <systemc>

namespace hwsim {

// Call once per process before building any module (idempotent).
void init_systemc();

inline sc_core::sc_time to_sc_time(double seconds) {
  return sc_core::sc_time(seconds * 1e15, sc_core::SC_FS);
}
inline double seconds_of(const sc_core::sc_time& t) { return t.to_seconds(); }
inline double sim_now() { return sc_core::sc_time_stamp().to_seconds(); }

}  // namespace hwsim
