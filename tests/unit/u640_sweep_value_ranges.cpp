// --vary values: lists, geometric, linear-with-count and stepped ranges, units kept.
#include <doctest/doctest.h>

#include "app/sweep/sweep_values.h"
#include "sim/error.h"
#include "sim/units.h"

using hwsim::expand_sweep_values;

TEST_CASE("sweep values: a list is kept as written") {
  auto v = expand_sweep_values("workload.batch", "8,16, 32");
  CHECK(v == std::vector<std::string>{"8", "16", "32"});
}

TEST_CASE("sweep values: 1..256*2 is geometric, end included") {
  auto v = expand_sweep_values("workload.batch", "1..256*2");
  REQUIRE(v.size() == 9);
  CHECK(v.front() == "1");
  CHECK(v[4] == "16");
  CHECK(v.back() == "256");
  CHECK(expand_sweep_values("k", "3..100*3") == std::vector<std::string>{"3", "9", "27", "81"});
}

TEST_CASE("sweep values: 1TB/s..8TB/s:8 is 8 linear points with the unit") {
  auto v = expand_sweep_values("memory.hbm.bandwidth", "1TB/s..8TB/s:8");
  REQUIRE(v.size() == 8);
  CHECK(v[0] == "1 TB/s");
  CHECK(v[1] == "2 TB/s");
  CHECK(v[7] == "8 TB/s");
  // each value reads back through the one units parser
  auto q = hwsim::parse_quantity_as(v[2], hwsim::Dimension::bandwidth, nullptr);
  REQUIRE(q);
  CHECK(*q == doctest::Approx(3e12));
  CHECK(expand_sweep_values("x", "0.5..1.5:3") == std::vector<std::string>{"0.5", "1", "1.5"});
}

TEST_CASE("sweep values: generated quantities read back exactly (binary sizes)") {
  auto v = expand_sweep_values("memory.hbm.size", "1MiB..4MiB*2");
  REQUIRE(v.size() == 3);
  CHECK(v[0] == "1.048576 MB");
  auto q = hwsim::parse_quantity_as(v[2], hwsim::Dimension::bytes, nullptr);
  REQUIRE(q);
  CHECK(*q == 4.0 * 1024 * 1024);  // exactly, not to 6 digits
}

TEST_CASE("sweep values: 0..1024+256 steps, 1..4 steps by one, mixed items") {
  CHECK(expand_sweep_values("k", "0..1024+256") == std::vector<std::string>{"0", "256", "512", "768", "1024"});
  CHECK(expand_sweep_values("k", "1..4") == std::vector<std::string>{"1", "2", "3", "4"});
  CHECK(expand_sweep_values("k", "1,10..40*2") == std::vector<std::string>{"1", "10", "20", "40"});
}

static std::string error_of(const std::string& text) {
  try {
    expand_sweep_values("workload.batch", text);
  } catch (const hwsim::UserError& e) {
    CHECK(e.code() == hwsim::ExitCode::usage);
    return e.what();
  }
  FAIL("accepted " << text);
  return {};
}

TEST_CASE("sweep values: bad ranges are one line naming the key and the text") {
  std::string e = error_of("256..1*2");
  CHECK(e.find("workload.batch") != std::string::npos);
  CHECK(e.find("'256..1*2'") != std::string::npos);
  CHECK(e.find("empty range") != std::string::npos);
  CHECK(error_of("1..8*1").find("factor") != std::string::npos);
  CHECK(error_of("1..8:0").find("count") != std::string::npos);
  CHECK(error_of("1TB/s..8GHz:4").find("different units") != std::string::npos);
  CHECK(error_of("1..fast").find("bad range bound 'fast'") != std::string::npos);
  CHECK(error_of("1,,2").find("empty value") != std::string::npos);
  CHECK(error_of("1..1e9+1").find("more than") != std::string::npos);
}
