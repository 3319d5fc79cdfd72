#include "sim/units.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "sim/input_file.h"
#include <utility>
#include <vector>

namespace hwsim {
namespace {

struct BaseUnit {
  std::string_view symbol;
  Dimension dimension;
  double scale;  // multiply to get the SI base unit of `dimension`
};

// Longest symbols first so that "Bps"-like prefixes cannot shadow longer spellings.
const std::vector<BaseUnit>& base_units() {
  static const std::vector<BaseUnit> units = {
      {"FLOP/s", Dimension::flop_rate, 1.0}, {"FLOPS", Dimension::flop_rate, 1.0},
      {"bit/s", Dimension::bandwidth, 0.125}, {"B/s", Dimension::bandwidth, 1.0},
      {"b/s", Dimension::bandwidth, 0.125},   {"bit", Dimension::bytes, 0.125},
      {"Hz", Dimension::frequency, 1.0},      {"B", Dimension::bytes, 1.0},
      {"b", Dimension::bytes, 0.125},         {"s", Dimension::time, 1.0},
      {"W", Dimension::power, 1.0},           {"J", Dimension::energy, 1.0},
  };
  return units;
}

struct Prefix {
  std::string_view symbol;
  double factor;
};

const std::vector<Prefix>& prefixes() {
  static const std::vector<Prefix> list = {
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15},
      {"E", 1e18}, {"m", 1e-3}, {"u", 1e-6}, {"µ", 1e-6}, {"n", 1e-9}, {"p", 1e-12}, {"f", 1e-15},
      {"", 1.0},
  };
  return list;
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

// A unit echoed in an error line: at most 40 characters, control characters shown as '?'.
std::string shorten_unit(std::string_view unit) { return shorten(std::string(unit), 40); }

std::optional<std::pair<Dimension, double>> parse_unit(std::string_view unit, std::string* why) {
  for (const auto& prefix : prefixes()) {
    if (unit.substr(0, prefix.symbol.size()) != prefix.symbol) continue;
    std::string_view rest = unit.substr(prefix.symbol.size());
    for (const auto& base : base_units()) {
      if (rest != base.symbol) continue;
      bool binary = prefix.symbol.size() == 2 && prefix.symbol[1] == 'i';
      bool small = prefix.factor < 1.0;
      if (binary && base.dimension != Dimension::bytes && base.dimension != Dimension::bandwidth) {
        if (why) *why = fmt::format("binary prefix '{}' only applies to bytes", prefix.symbol);
        return std::nullopt;
      }
      if (small && base.dimension != Dimension::time && base.dimension != Dimension::energy &&
          base.dimension != Dimension::power) {
        if (why) *why = fmt::format("prefix '{}' makes no sense for {}", prefix.symbol, base.symbol);
        return std::nullopt;
      }
      return std::make_pair(base.dimension, prefix.factor * base.scale);
    }
  }
  if (why) {
    // "K": kilo (1000) is "k"; only bytes and bandwidths also take the binary "Ki" (1024).
    const BaseUnit* base = nullptr;
    for (const auto& b : base_units())
      if (!unit.empty() && unit[0] == 'K' && unit.substr(1) == b.symbol) base = &b;
    std::string rest = shorten_unit(unit.empty() ? std::string_view() : unit.substr(1));
    if (base && (base->dimension == Dimension::bytes || base->dimension == Dimension::bandwidth))
      *why = fmt::format("ambiguous unit '{}': write k{} (1000) or Ki{} (1024)", shorten_unit(unit), rest, rest);
    else if (base)
      *why = fmt::format("unknown unit '{}': the prefix kilo is a small k (k{})", shorten_unit(unit), rest);
    else
      *why = fmt::format("unknown unit '{}'", shorten_unit(unit));
  }
  return std::nullopt;
}

}  // namespace

std::string_view dimension_name(Dimension d) {
  switch (d) {
    case Dimension::none: return "plain number";
    case Dimension::bytes: return "size";
    case Dimension::bandwidth: return "bandwidth";
    case Dimension::time: return "time";
    case Dimension::frequency: return "frequency";
    case Dimension::power: return "power";
    case Dimension::energy: return "energy";
    case Dimension::flop_rate: return "FLOP rate";
  }
  return "?";
}

std::string_view example_units(Dimension d) {
  switch (d) {
    case Dimension::none: return "a number without unit";
    case Dimension::bytes: return "e.g. \"50 MiB\", \"80 GB\", \"228 KiB\"";
    case Dimension::bandwidth: return "e.g. \"3.35 TB/s\", \"900 GB/s\", \"400 Gbit/s\"";
    case Dimension::time: return "e.g. \"650 ns\", \"2 us\", \"1.5 ms\"";
    case Dimension::frequency: return "e.g. \"1.98 GHz\", \"1980 MHz\"";
    case Dimension::power: return "e.g. \"700 W\"";
    case Dimension::energy: return "e.g. \"5 pJ\"";
    case Dimension::flop_rate: return "e.g. \"989 TFLOP/s\"";
  }
  return "";
}

std::optional<ParsedQuantity> parse_quantity(std::string_view text, std::string* why) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  std::string trimmed(text.substr(begin, end - begin));
  if (trimmed.empty()) {
    if (why) *why = "empty value";
    return std::nullopt;
  }
  const char* start = trimmed.c_str();
  char* stop = nullptr;
  double number = std::strtod(start, &stop);
  if (stop == start || !std::isfinite(number) || trimmed.find_first_of("xX") < std::size_t(stop - start)) {
    if (why) *why = fmt::format("'{}' is not a number with a unit", shorten_unit(trimmed));
    return std::nullopt;
  }
  if (number < 0) {
    if (why) *why = fmt::format("'{}' is negative", shorten_unit(trimmed));
    return std::nullopt;
  }
  std::string_view unit(stop);
  while (!unit.empty() && is_space(unit.front())) unit.remove_prefix(1);
  if (unit.empty()) return ParsedQuantity{number, Dimension::none};
  auto parsed = parse_unit(unit, why);
  if (!parsed) return std::nullopt;
  double value = number * parsed->second;
  if (!std::isfinite(value)) {  // 1e308 TB/s: finite as written, infinite once scaled
    if (why) *why = fmt::format("'{}' is too large", shorten_unit(trimmed));
    return std::nullopt;
  }
  return ParsedQuantity{value, parsed->first};
}

std::optional<double> parse_quantity_as(std::string_view text, Dimension expected, std::string* why) {
  auto q = parse_quantity(text, why);
  if (!q) return std::nullopt;
  if (q->dimension != expected) {
    if (why)
      *why = fmt::format("'{}' is a {}, expected a {} ({})", shorten_unit(text), dimension_name(q->dimension),
                         dimension_name(expected), example_units(expected));
    return std::nullopt;
  }
  return q->value;
}

std::string format_quantity(double value, Dimension d, int significant) {
  std::string_view unit;
  switch (d) {
    case Dimension::none: unit = ""; break;
    case Dimension::bytes: unit = "B"; break;
    case Dimension::bandwidth: unit = "B/s"; break;
    case Dimension::time: unit = "s"; break;
    case Dimension::frequency: unit = "Hz"; break;
    case Dimension::power: unit = "W"; break;
    case Dimension::energy: unit = "J"; break;
    case Dimension::flop_rate: unit = "FLOP/s"; break;
  }
  static const std::pair<double, const char*> scale[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"},
      {1.0, ""},   {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
  double magnitude = std::fabs(value);
  for (const auto& [factor, symbol] : scale) {
    if (magnitude >= factor * 0.9995 || factor == 1e-12) {
      if (value == 0) return fmt::format("0 {}", unit);
      return fmt::format("{:.{}g} {}{}", value / factor, significant, symbol, unit);
    }
  }
  return fmt::format("{:.{}g} {}", value, significant, unit);
}

std::string format_binary_bytes(double bytes, int significant) {
  static const char* prefixes[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t i = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024 && i + 1 < std::size(prefixes)) v /= 1024, ++i;
  return fmt::format("{:.{}g} {}", v, significant, prefixes[i]);
}

}  // namespace hwsim
