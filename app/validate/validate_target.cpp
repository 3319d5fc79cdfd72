#include "app/validate/validate_target.h"

#include <fmt/format.h>

#include "app/run_configs.h"
#include "sim/error.h"

namespace hwsim {

namespace {
// A bare config name: a record may not point at arbitrary files.
std::string record_config_name(const Measurement& m, const std::string& key) {
  auto name = record_word(m, key);
  if (!name) return "";
  if (name->find_first_of("/\\") != std::string::npos || name->find(".toml") != std::string::npos)
    record_fail(m, key, fmt::format("'{}' is not a shipped chip's bare name (e.g. a100, tpu_v5e)", *name));
  return *name;
}

std::string key_of(const ValidateTarget& t) {
  std::string key = t.chip + "|" + t.system;
  for (const auto& o : t.overrides) key += "|" + o;
  return key;
}
}  // namespace

ValidateTarget target_of(const Measurement& m, const ValidationOptions& options) {
  ValidateTarget t;
  if (!options.chip.empty() || !options.system.empty()) {
    t.chip = options.chip, t.system = options.system, t.overrides = options.overrides;
    t.label = options.system.empty() ? options.chip : options.system;
    return t;
  }
  t.from_record = true;
  t.chip = record_config_name(m, "chip");
  if (t.empty()) return t;
  if (auto set = record_texts(m, "set")) {
    for (const auto& o : *set)
      if (o.find('=') == std::string::npos || o.front() == '=')
        record_fail(m, "set", fmt::format("'{}' is not KEY=VALUE", o));
    t.overrides = *set;
  }
  t.overrides.insert(t.overrides.end(), options.overrides.begin(), options.overrides.end());
  t.label = t.chip;
  if (t.overrides.size() > options.overrides.size()) t.label += " (set)";
  return t;
}

std::string role_of(const Measurement& m) {
  auto role = record_text(m, "role");
  if (!role || *role == "judge") return "judge";
  if (*role == "fit") return "fit";
  record_fail(m, "role", fmt::format("'{}' is neither fit (it fitted a parameter) nor judge", *role));
}

const std::string& TargetKinds::kind(const ValidateTarget& target, const Measurement& m) {
  std::string key = key_of(target);
  auto it = kinds_.find(key);
  if (it != kinds_.end()) return it->second;
  std::string kind;
  try {
    kind = load_run_configs(target.chip, target.system, target.overrides).chip.kind();
  } catch (const UserError& e) {
    if (!target.from_record) throw;
    throw UserError(e.code(), fmt::format("{}:{}: chip: {}", m.file, m.line, e.what()));
  }
  return kinds_.emplace(key, kind).first->second;
}

}  // namespace hwsim
