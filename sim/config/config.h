#pragma once
// A validated configuration: every declared parameter has a typed value (from the chip file, its
// `extends` chain, a --set override, or the declared default). Built once by load_config(), the
// project's single parse point; models read typed values from it and never see TOML.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/param.h"

namespace toml { inline namespace v3 { class table; } }

namespace hwsim {

struct ParamValue {
  const ParamDecl* decl = nullptr;
  double number = 0;     // count/integer/real/fraction/quantity (SI base units)
  std::string text;      // choice/text, and the value as written for quantities
  bool flag = false;     // boolean
  std::string origin;    // "configs/h100.toml:12", "--set", or "default"
};

class Config {
 public:
  Config();
  ~Config();
  Config(Config&&) noexcept;
  Config& operator=(Config&&) noexcept;

  // Typed accessors. Asking for an undeclared key is a programming error (std::logic_error).
  double number(const std::string& key) const;
  std::int64_t whole(const std::string& key) const;
  const std::string& text(const std::string& key) const;
  bool flag(const std::string& key) const;
  const ParamValue& value(const std::string& key) const;

  // The fully resolved configuration (extends merged, --set applied, defaults filled in), as TOML.
  const toml::table& resolved() const { return *resolved_; }
  std::string resolved_json() const;   // the same, as a JSON object
  const std::string& chip_path() const { return chip_path_; }
  // The --set KEY=VALUE assignments that changed this config, in order (a report says what-if).
  const std::vector<std::string>& overrides() const { return overrides_; }
  // The chip's device kind (`kind` in the file, "gpu" when absent): which components and keys it has.
  const std::string& kind() const { return kind_; }

 private:
  friend Config load_config(const std::string&, const std::vector<std::string>&, const std::vector<std::string>&);
  friend Config load_system_config(const std::string&, const std::vector<std::string>&);
  friend Config load_file(Config, const std::vector<std::string>&, const std::string&, const std::vector<std::string>&);
  std::string chip_path_;
  std::string kind_;
  std::vector<std::string> overrides_;
  std::map<std::string, ParamValue> values_;
  std::unique_ptr<toml::table> resolved_;
};

// Loads a chip file, follows its `extends` chain, applies --set "KEY=VALUE" overrides in order,
// reads the chip's `kind`, checks every key against the ParamCatalog entries of that kind (scoped
// configuration: only the components a kind instantiates are validated, defaulted or required)
// and every value against its declaration.
// Throws UserError(config) with one line: "FILE:LINE: KEY: what is wrong (what would be right)".
// `chip` may be a path or a bare chip name ("h100" → configs/h100.toml). `kinds`: the device kinds
// a chip may name (the caller's registered ones: ops/device.h load_chip); another is one line.
Config load_config(const std::string& chip, const std::vector<std::string>& overrides,
                   const std::vector<std::string>& kinds);

// Resolves a bare chip name or path to an existing file path; throws UserError(config) if none.
std::string find_chip_file(const std::string& chip);

// Names of the chips shipped in configs/ (file stems), sorted.
std::vector<std::string> shipped_chips();

// A system file (kind = "system": chips and the links between them, models/cluster/), loaded the
// same way: `extends`, --set overrides (system keys only), declared keys of kind "system".
// `system` may be a path or a bare name ("h200x2" → configs/systems/h200x2.toml).
Config load_system_config(const std::string& system, const std::vector<std::string>& overrides);
std::string find_system_file(const std::string& system);
std::vector<std::string> shipped_systems();
// Is `key` a parameter of system files (else, on a system run, a --set goes to its chips)?
bool is_system_key(const std::string& key);

}  // namespace hwsim
