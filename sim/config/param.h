#pragma once
// Parameter declarations. Every configuration key a model reads is declared exactly once, next to
// the code that uses it, with its type, unit, default (or "required") and a one-line description
// (SST style). Declarations self-register in the ParamCatalog at static-initialisation time, so
// `hwsim list params` prints them and the config loader rejects any key nobody declared.
#include <optional>
#include <string>
#include <vector>

#include "sim/units.h"

namespace hwsim {

enum class ParamType {
  count,     // whole number >= 1
  integer,   // whole number >= 0
  real,      // non-negative real number
  fraction,  // real in (0, 1]
  quantity,  // number with a unit of `dimension`, strictly positive unless allow_zero
  choice,    // one of `choices`
  text,      // free text (names, descriptions)
  boolean,
};

struct ParamDecl {
  std::string key;            // full dotted path, e.g. "memory.hbm.bandwidth"
  ParamType type = ParamType::real;
  Dimension dimension = Dimension::none;
  std::optional<std::string> default_value;  // as a user would write it; nullopt = required
  std::string description;
  std::vector<std::string> choices;           // for ParamType::choice
  bool allow_zero = false;                    // quantity/real: may the value be 0?
  std::optional<double> min_value;            // smallest non-zero value accepted (SI base units)
  std::optional<double> max_value;            // largest value accepted (SI base units); whole
                                              // numbers are capped at kMaxWhole regardless
  bool power_of_two = false;                  // whole numbers: must be a power of two
  std::vector<std::string> kinds;             // device kinds whose chips take this key (set by
                                              // ParamRegistration); empty: every chip

  // Fluent modifiers, so declarations read as one line each.
  ParamDecl& defaults_to(std::string value) { default_value = std::move(value); return *this; }
  ParamDecl& zero_allowed() { allow_zero = true; return *this; }
  // The largest value a model can take without running out of memory or range (e.g. SMs a
  // simulation allocates state for): larger values are refused with the bound in the message.
  ParamDecl& at_most(double limit) { max_value = limit; return *this; }
  // The smallest non-zero value that still means something (a cache line of 1 byte does not).
  ParamDecl& at_least(double limit) { min_value = limit; return *this; }
  ParamDecl& pow2() { power_of_two = true; return *this; }
};

// Every count or integer fits a 32-bit int (models store them as int).
inline constexpr double kMaxWhole = 2147483647.0;

// The valid range of a parameter: the one rule every value of every key obeys, wherever it was
// written (chip or system file, --set, a sweep's --vary, a default). A value is finite; it is 0
// only where the declaration allows zero; otherwise it lies in [lowest, highest]. The bounds are
// the declaration's own (at_least, at_most) or else the defaults of its type and dimension
// (docs/architecture.md "Ranges"): wide enough for any real chip from a microcontroller to a
// cluster, narrow enough that no value overflows, underflows to zero or makes a simulation's time
// or memory unbounded.
struct ParamRange {
  double lowest = 0;   // smallest non-zero value
  double highest = 0;  // largest value
  bool zero = false;   // is 0 allowed?
  bool whole = false;  // whole numbers only
  bool power_of_two = false;
};
ParamRange valid_range(const ParamDecl& decl);
// "between 1 kHz and 1 THz", "a whole number between 1 and 100000", ... for error lines.
std::string describe_range(const ParamDecl& decl);
// Is `value` inside the range? (NaN never is.)
bool in_range(const ParamDecl& decl, double value);

// Builders for the common kinds.
ParamDecl count_param(std::string key, std::string description);
ParamDecl integer_param(std::string key, std::string description);
ParamDecl real_param(std::string key, std::string description);
ParamDecl fraction_param(std::string key, std::string description);
ParamDecl quantity_param(std::string key, Dimension dimension, std::string description);
ParamDecl choice_param(std::string key, std::vector<std::string> choices, std::string description);
ParamDecl text_param(std::string key, std::string description);
ParamDecl bool_param(std::string key, std::string description);

// "count", "fraction", "bandwidth", ... for listings and errors.
std::string type_label(const ParamDecl& decl);

// Does a chip of device kind `kind` take this key?
bool applies_to(const ParamDecl& decl, const std::string& kind);

// The component a key belongs to: its table, "systolic.mxu" for "systolic.mxu.rows" ("" for a
// top-level key such as "name").
std::string component_of(const std::string& key);

// All declared parameters, sorted by key.
class ParamCatalog {
 public:
  static ParamCatalog& instance();
  void add(ParamDecl decl);  // a second declaration of one key is a bug (aborts)
  const ParamDecl* find(const std::string& key) const;
  const std::vector<ParamDecl>& all() const { return decls_; }
  std::vector<std::string> keys() const;
  std::vector<std::string> keys_for(const std::string& kind) const;  // keys a chip of `kind` takes

 private:
  std::vector<ParamDecl> decls_;
};

// Put one of these at namespace scope in the .cpp of the component that owns the parameters.
// Scoped configuration: `kinds` names the device kinds whose chip files take these keys (a chip
// says `kind = "systolic"`); only those are validated, defaulted or required for such a chip.
// Without `kinds` the keys belong to every chip (name, description, kind).
struct ParamRegistration {
  explicit ParamRegistration(std::vector<ParamDecl> decls);
  ParamRegistration(std::vector<std::string> kinds, std::vector<ParamDecl> decls);
};

}  // namespace hwsim
