#include "sim/config/param.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>

namespace hwsim {

namespace {
ParamDecl make(std::string key, ParamType type, std::string description) {
  ParamDecl d;
  d.key = std::move(key);
  d.type = type;
  d.description = std::move(description);
  return d;
}
}  // namespace

ParamDecl count_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::count, std::move(description));
}
ParamDecl integer_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::integer, std::move(description));
}
ParamDecl real_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::real, std::move(description));
}
ParamDecl fraction_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::fraction, std::move(description));
}
ParamDecl quantity_param(std::string key, Dimension dimension, std::string description) {
  ParamDecl d = make(std::move(key), ParamType::quantity, std::move(description));
  d.dimension = dimension;
  return d;
}
ParamDecl choice_param(std::string key, std::vector<std::string> choices, std::string description) {
  ParamDecl d = make(std::move(key), ParamType::choice, std::move(description));
  d.choices = std::move(choices);
  return d;
}
ParamDecl text_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::text, std::move(description));
}
ParamDecl bool_param(std::string key, std::string description) {
  return make(std::move(key), ParamType::boolean, std::move(description));
}

std::string type_label(const ParamDecl& decl) {
  switch (decl.type) {
    case ParamType::count: return "count";
    case ParamType::integer: return "integer";
    case ParamType::real: return "number";
    case ParamType::fraction: return "fraction";
    case ParamType::quantity: return std::string(dimension_name(decl.dimension));
    case ParamType::choice: return "choice";
    case ParamType::text: return "text";
    case ParamType::boolean: return "bool";
  }
  return "?";
}

namespace {
// Default bounds of a quantity by its dimension (SI base units): every chip shipped lies well
// inside them; beyond them a value is a typo or a unit slip (1e308 TB/s is infinite once scaled,
// 1e-320 underflows a rate to nothing, a 1 Hz clock puts a microsecond of work years away).
struct DimensionBounds {
  double lowest, highest;
};
DimensionBounds dimension_bounds(Dimension d) {
  switch (d) {
    case Dimension::bytes: return {1, 0x1p60};                 // 1 B .. 1 EiB
    case Dimension::bandwidth: return {1e3, 1e18};             // 1 kB/s .. 1 EB/s
    case Dimension::time: return {1e-15, 3600};                // 1 fs (the engine's step) .. 1 h
    case Dimension::frequency: return {1e3, 1e12};             // 1 kHz .. 1 THz
    case Dimension::power: return {1e-9, 1e9};                 // 1 nW .. 1 GW
    case Dimension::energy: return {1e-21, 1};                 // 1 zJ (per bit) .. 1 J
    case Dimension::flop_rate: return {1, 1e21};               // 1 FLOP/s .. 1 ZFLOP/s
    case Dimension::none: break;
  }
  return {1e-9, 1e12};
}
// Plain numbers (FLOP per clock, cycles, operations per element) and fractions.
constexpr double kRealLowest = 1e-9, kRealHighest = 1e12, kFractionLowest = 1e-6;

// A bound as a user would write it: "1 kHz", "3600 s", "1 EiB", "1 fs".
std::string bound_text(const ParamDecl& d, double x) {
  if (d.type == ParamType::count || d.type == ParamType::integer) return fmt::format("{:.0f}", x);
  if (d.type != ParamType::quantity || x == 0) return fmt::format("{:.6g}", x);
  std::string unit(format_quantity(1, d.dimension));  // "1 B/s" → the unit symbol
  unit = unit.substr(unit.find(' ') + 1);
  if (d.dimension == Dimension::time && x >= 1) return fmt::format("{:g} s", x);
  static const std::pair<double, const char*> binary[] = {{0x1p60, "Ei"}, {0x1p50, "Pi"}, {0x1p40, "Ti"},
                                                          {0x1p30, "Gi"}, {0x1p20, "Mi"}, {0x1p10, "Ki"}};
  if (d.dimension == Dimension::bytes)
    for (const auto& [factor, prefix] : binary)
      if (x >= factor && std::fmod(x, factor) == 0) return fmt::format("{:g} {}{}", x / factor, prefix, unit);
  static const std::pair<double, const char*> si[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"},
                                                      {1e3, "k"},  {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"},
                                                      {1e-12, "p"}, {1e-15, "f"}, {1e-18, "a"}, {1e-21, "z"}};
  for (const auto& [factor, prefix] : si)
    if (x >= factor * 0.9999999) return fmt::format("{:g} {}{}", x / factor, prefix, unit);
  return fmt::format("{:g} {}", x, unit);
}
}  // namespace

ParamRange valid_range(const ParamDecl& d) {
  ParamRange r;
  r.zero = d.allow_zero;
  switch (d.type) {
    case ParamType::count: r.lowest = 1, r.highest = kMaxWhole, r.whole = true, r.zero = false; break;
    case ParamType::integer: r.lowest = 1, r.highest = kMaxWhole, r.whole = true, r.zero = true; break;
    case ParamType::real: r.lowest = kRealLowest, r.highest = kRealHighest; break;
    case ParamType::fraction: r.lowest = kFractionLowest, r.highest = 1, r.zero = false; break;
    case ParamType::quantity: {
      auto b = dimension_bounds(d.dimension);
      r.lowest = b.lowest, r.highest = b.highest;
      break;
    }
    default: return r;
  }
  if (d.min_value) r.lowest = *d.min_value;
  if (d.max_value) r.highest = r.whole ? std::min(*d.max_value, kMaxWhole) : *d.max_value;
  r.power_of_two = d.power_of_two;
  return r;
}

bool in_range(const ParamDecl& d, double x) {
  ParamRange r = valid_range(d);
  if (!std::isfinite(x)) return false;
  if (x == 0) return r.zero;
  if (x < r.lowest || x > r.highest) return false;
  if (r.whole && x != std::floor(x)) return false;
  if (r.power_of_two && (x < 1 || std::exp2(std::floor(std::log2(x))) != x)) return false;
  return true;
}

std::string describe_range(const ParamDecl& d) {
  ParamRange r = valid_range(d);
  std::string what = r.whole ? (r.power_of_two ? "a power of two" : "a whole number") : "a value";
  if (d.type == ParamType::fraction) what = "a fraction";
  std::string text = fmt::format("{} between {} and {}", what, bound_text(d, r.lowest), bound_text(d, r.highest));
  if (r.zero && !r.whole) text += ", or 0";
  if (r.zero && r.whole) text = fmt::format("{} between 0 and {}", what, bound_text(d, r.highest));
  return text;
}

ParamCatalog& ParamCatalog::instance() {
  static ParamCatalog catalog;
  return catalog;
}

void ParamCatalog::add(ParamDecl decl) {
  if (find(decl.key)) {
    std::fprintf(stderr, "hwsim: internal error: parameter %s declared twice\n", decl.key.c_str());
    std::abort();
  }
  auto at = std::lower_bound(decls_.begin(), decls_.end(), decl.key,
                             [](const ParamDecl& d, const std::string& k) { return d.key < k; });
  decls_.insert(at, std::move(decl));
}

const ParamDecl* ParamCatalog::find(const std::string& key) const {
  auto at = std::lower_bound(decls_.begin(), decls_.end(), key,
                             [](const ParamDecl& d, const std::string& k) { return d.key < k; });
  return (at != decls_.end() && at->key == key) ? &*at : nullptr;
}

std::vector<std::string> ParamCatalog::keys() const {
  std::vector<std::string> out;
  out.reserve(decls_.size());
  for (const auto& d : decls_) out.push_back(d.key);
  return out;
}

std::vector<std::string> ParamCatalog::keys_for(const std::string& kind) const {
  std::vector<std::string> out;
  for (const auto& d : decls_)
    if (applies_to(d, kind)) out.push_back(d.key);
  return out;
}

bool applies_to(const ParamDecl& decl, const std::string& kind) {
  return decl.kinds.empty() || std::find(decl.kinds.begin(), decl.kinds.end(), kind) != decl.kinds.end();
}

std::string component_of(const std::string& key) {
  auto dot = key.rfind('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

ParamRegistration::ParamRegistration(std::vector<ParamDecl> decls) {
  for (auto& d : decls) ParamCatalog::instance().add(std::move(d));
}

ParamRegistration::ParamRegistration(std::vector<std::string> kinds, std::vector<ParamDecl> decls) {
  for (auto& d : decls) {
    d.kinds = kinds;
    ParamCatalog::instance().add(std::move(d));
  }
}

}  // namespace hwsim
