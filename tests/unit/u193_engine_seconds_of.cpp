// seconds_of() and sim_now() are the library's sc_time::to_seconds() at the engine's 1 fs
// resolution, to the bit, over the whole range (they skip a library call per conversion).
#include <doctest/doctest.h>

#include <cstdint>
#include <random>

#include "sim/engine/isolated_run.h"
#include "sim/engine/systemc.h"

using namespace hwsim;

TEST_CASE("sim time: seconds_of equals sc_time::to_seconds bit for bit") {
  std::string verdict = run_isolated([] {
    init_systemc();
    std::mt19937_64 rng(20261127);
    for (int i = 0; i < 200000; ++i) {
      std::uint64_t v = rng() >> (rng() % 64);
      sc_core::sc_time t = sc_core::sc_time::from_value(v);
      if (seconds_of(t) != t.to_seconds()) return std::string("differs at ") + std::to_string(v);
    }
    return std::string("same");
  });
  CHECK(verdict == "same");
}
