// Unit parser: SI vs binary prefixes, bits vs bytes, rejection of nonsense.
#include <doctest/doctest.h>

#include "sim/units.h"

using namespace hwsim;

TEST_CASE("units: SI and binary prefixes") {
  CHECK(parse_quantity_as("1.98 GHz", Dimension::frequency, nullptr).value() == doctest::Approx(1.98e9));
  CHECK(parse_quantity_as("3.35 TB/s", Dimension::bandwidth, nullptr).value() == doctest::Approx(3.35e12));
  CHECK(parse_quantity_as("50 MiB", Dimension::bytes, nullptr).value() == 50.0 * 1024 * 1024);
  CHECK(parse_quantity_as("228 KiB", Dimension::bytes, nullptr).value() == 228.0 * 1024);
  CHECK(parse_quantity_as("80 GB", Dimension::bytes, nullptr).value() == doctest::Approx(80e9));
  CHECK(parse_quantity_as("700 W", Dimension::power, nullptr).value() == 700.0);
  CHECK(parse_quantity_as("650 ns", Dimension::time, nullptr).value() == doctest::Approx(650e-9));
  CHECK(parse_quantity_as("4.8TB/s", Dimension::bandwidth, nullptr).value() == doctest::Approx(4.8e12));
}

TEST_CASE("units: bits are an eighth of bytes") {
  CHECK(parse_quantity_as("400 Gbit/s", Dimension::bandwidth, nullptr).value() == doctest::Approx(50e9));
  CHECK(parse_quantity_as("8 Gb/s", Dimension::bandwidth, nullptr).value() == doctest::Approx(1e9));
  CHECK(parse_quantity_as("16 bit", Dimension::bytes, nullptr).value() == 2.0);
}

TEST_CASE("units: nonsense is rejected with a reason") {
  std::string why;
  CHECK_FALSE(parse_quantity("3 TB/ss", &why));
  CHECK(why.find("unknown unit 'TB/ss'") != std::string::npos);
  CHECK_FALSE(parse_quantity("-5 GB/s", &why));
  CHECK(why.find("negative") != std::string::npos);
  CHECK_FALSE(parse_quantity("fast", &why));
  CHECK_FALSE(parse_quantity("", &why));
  CHECK_FALSE(parse_quantity("5 KB", &why));
  CHECK(why.find("ambiguous") != std::string::npos);
  CHECK_FALSE(parse_quantity("5 KiHz", &why));
  CHECK_FALSE(parse_quantity_as("3 GHz", Dimension::bytes, &why));
  CHECK(why.find("expected a size") != std::string::npos);
}

TEST_CASE("units: formatting picks an SI prefix") {
  CHECK(format_quantity(3.35e12, Dimension::bandwidth) == "3.35 TB/s");
  CHECK(format_quantity(1.5e-6, Dimension::time) == "1.5 us");
}

TEST_CASE("units: a unit with line breaks is echoed on one line (fuzz_units finding)") {
  std::string why;
  CHECK_FALSE(hwsim::parse_quantity("228 K\n\n\niB", &why));
  CHECK(why.find('\n') == std::string::npos);
  CHECK(why.find("'K???iB'") != std::string::npos);
}
