#pragma once
// One parser for every physical quantity written in a config file or on the command line:
// "1.98 GHz", "3.35 TB/s", "50 MiB", "228 KiB", "700 W", "650 ns", "900 Gbit/s".
//
// Contract:
//  - SI prefixes (k M G T P E, and m u µ n p f for small values) are powers of 1000; binary
//    prefixes (Ki Mi Gi Ti Pi) are powers of 1024. "K" alone is rejected as ambiguous.
//  - "B" is bytes, "b"/"bit" is bits; both give bytes (bits / 8) for Bytes and Bandwidth.
//  - Values are returned in SI base units: bytes, bytes/s, seconds, hertz, watts, joules, FLOP/s.
//  - Negative values, trailing garbage ("3 TB/ss"), missing numbers ("fast") and a unit of the
//    wrong dimension ("3 GHz" where bytes are expected) are errors with a one-line reason.
#include <optional>
#include <string>
#include <string_view>

namespace hwsim {

enum class Dimension { none, bytes, bandwidth, time, frequency, power, energy, flop_rate };

// Unit symbol(s) a user may write for a dimension, for error messages ("B, KiB, MB, ...").
std::string_view example_units(Dimension d);
std::string_view dimension_name(Dimension d);

struct ParsedQuantity {
  double value = 0;  // in SI base units of `dimension`
  Dimension dimension = Dimension::none;
};

// Parses "<number> <unit>" or a bare number (Dimension::none). On failure returns nullopt and,
// if `why` is given, sets it to the reason ("unknown unit 'TB/ss'").
std::optional<ParsedQuantity> parse_quantity(std::string_view text, std::string* why = nullptr);

// Parses text that must have dimension `expected`; throws nothing, reports through `why`.
std::optional<double> parse_quantity_as(std::string_view text, Dimension expected, std::string* why);

// Human formatting with an SI prefix: format_quantity(3.35e12, Dimension::bandwidth) == "3.35 TB/s".
std::string format_quantity(double value, Dimension d, int significant = 3);
// Bytes with a binary prefix, as memories are sized: 32768 → "32 KiB", 1.5·2^20 → "1.5 MiB".
std::string format_binary_bytes(double bytes, int significant = 3);

}  // namespace hwsim
