// Bad power input (a chip file's or a --set's power.* key): exit 3, exactly one stderr line that
// names the key and what is wrong, nothing on stdout.
#include <doctest/doctest.h>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
void check_one_line(const CliRun& r, const std::string& expected) {
  CHECK(r.exit_code == 3);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], expected));
  CHECK(r.out.empty());
}

CliRun with_set(const std::string& set) {
  return run_hwsim("--chip h100 --workload gemm:M=64,N=64,K=64 --set '" + set + "'");
}
}  // namespace

TEST_CASE("power input: a chip file's idle floor above its idle power names file, line and key") {
  CliRun r = run_hwsim("--chip tests/fixtures/config/bad/power_floor_above_idle.toml --workload gemm:M=64,N=64,K=64");
  check_one_line(r, "power_floor_above_idle.toml:5: power.idle_floor: 300 W is above power.idle (128 W)");
}

TEST_CASE("power input: a negative power limit") { check_one_line(with_set("power.tdp=-700W"), "power.tdp: '-700W' is negative"); }

TEST_CASE("power input: a governor floor above the max clock") {
  check_one_line(with_set("power.dvfs.min_clock=3GHz"), "power.dvfs.min_clock: 3000 MHz is above gpu.sm.clock (1980 MHz)");
}

TEST_CASE("power input: an unknown governor start") {
  check_one_line(with_set("power.dvfs.start=warm"), "power.dvfs.start: 'warm' is not one of: sustained, cold");
}

TEST_CASE("power input: an energy exponent out of range") {
  check_one_line(with_set("power.dvfs.energy_exponent=9"), "power.dvfs.energy_exponent: 9 is out of range");
}

TEST_CASE("power input: an energy per FLOP given in watts") {
  check_one_line(with_set("power.energy_per_flop.bf16=5W"), "power.energy_per_flop.bf16: '5W' is a power");
}
