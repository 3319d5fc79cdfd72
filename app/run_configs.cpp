#include "app/run_configs.h"

#include "ops/device.h"

namespace hwsim {

RunConfigs load_run_configs(const std::string& chip, const std::string& system,
                            const std::vector<std::string>& overrides) {
  if (system.empty()) return {load_chip(chip, overrides), std::nullopt};
  std::vector<std::string> system_sets, chip_sets;
  for (const auto& o : overrides) (is_system_key(o.substr(0, o.find('='))) ? system_sets : chip_sets).push_back(o);
  Config system_config = load_system_config(system, system_sets);
  Config chip_config = load_chip(system_config.text("system.chip"), chip_sets);
  return {std::move(chip_config), std::move(system_config)};
}

}  // namespace hwsim
