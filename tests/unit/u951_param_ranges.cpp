// The one range rule (sim/config/param.h): a value is finite, zero only where declared, inside its
// bounds (declared, or the defaults of its type and dimension); load_config applies it to file
// values and --set alike.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ops/device.h"
#include "sim/config/param.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;

TEST_CASE("ranges: defaults by type and dimension, declared bounds, zero, NaN, infinity, powers of two") {
  ParamDecl clock = quantity_param("x.clock", Dimension::frequency, "a clock");
  CHECK(in_range(clock, 1.98e9));
  CHECK_FALSE(in_range(clock, 1));       // 1 Hz: below 1 kHz
  CHECK_FALSE(in_range(clock, 0));       // zero not declared
  CHECK_FALSE(in_range(clock, std::nan("")));
  CHECK_FALSE(in_range(clock, std::numeric_limits<double>::infinity()));
  CHECK(describe_range(clock) == "a value between 1 kHz and 1 THz");

  ParamDecl fraction = fraction_param("x.eff", "an efficiency");
  CHECK(in_range(fraction, 0.7));
  CHECK_FALSE(in_range(fraction, 1e-320));  // underflows a rate to nothing
  CHECK_FALSE(in_range(fraction, 1.5));

  ParamDecl energy = quantity_param("x.e", Dimension::energy, "an energy").zero_allowed();
  CHECK(in_range(energy, 0));
  CHECK(in_range(energy, 5e-12));
  CHECK(describe_range(energy) == "a value between 1 zJ and 1 J, or 0");

  ParamDecl line = count_param("x.line", "a line").at_least(4).at_most(4096).pow2();
  CHECK(in_range(line, 128));
  CHECK_FALSE(in_range(line, 3));
  CHECK_FALSE(in_range(line, 96));
  CHECK_FALSE(in_range(line, 8192));
  CHECK(describe_range(line) == "a power of two between 4 and 4096");

  ParamDecl count = count_param("x.n", "a count");
  CHECK_FALSE(in_range(count, 4294967297.0));  // every count fits an int
  CHECK_FALSE(in_range(count, 2.5));
}

TEST_CASE("ranges: a chip file's NaN, infinity and scaled overflow are refused as --set refuses them") {
  auto dir = test::scratch_dir();
  auto chip = [&](const std::string& table, const std::string& line) {
    auto path = dir / "chip.toml";
    std::ofstream(path) << "extends = \"" << test::chip_file("h100") << "\"\n[" << table << "]\n" << line << "\n";
    return path.string();
  };
  CHECK(test::contains(test::config_error_line(chip("gpu.tile", "tensor_efficiency = nan")),
                       "chip.toml:3: gpu.tile.tensor_efficiency: expected a finite number"));
  CHECK(test::contains(test::config_error_line(chip("gpu.tile", "tensor_efficiency = -inf")), "expected a finite number"));
  CHECK(test::contains(test::config_error_line(chip("memory.hbm", "bandwidth = \"1e308 TB/s\"")),
                       "'1e308 TB/s' is too large"));
  CHECK(test::contains(test::config_error_line(test::chip_file("h100"), {"memory.hbm.bandwidth=1e308TB/s"}), "too large"));
  CHECK(test::contains(test::config_error_line(test::chip_file("h100"), {"gpu.sm.clock=1Hz"}),
                       "--set: gpu.sm.clock: '1Hz' is out of range (a value between 1 kHz and 1 THz)"));
  CHECK(test::contains(test::config_error_line(test::chip_file("h100"), {"gpu.sm_count=4294967297"}),
                       "gpu.sm_count: 4294967297 is out of range (a whole number between 1 and 100000)"));
}

TEST_CASE("ranges: every shipped chip and system loads inside its ranges") {
  for (const auto& name : shipped_chips()) {
    INFO(name);
    Config c = load_chip(name, {});
    for (const auto& d : ParamCatalog::instance().all()) {
      if (!applies_to(d, c.kind()) || d.type == ParamType::choice || d.type == ParamType::text ||
          d.type == ParamType::boolean)
        continue;
      CHECK_MESSAGE(in_range(d, c.number(d.key)), d.key);
    }
  }
  for (const auto& name : shipped_systems()) CHECK_NOTHROW(load_system_config(name, {}));
}
