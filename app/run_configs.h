#pragma once
// The configs of a run as the command line gives them (run, sweep, validate): the chip's, and on a
// system (--system) the system's, whose `system.chip` names the chip. A --set KEY=VALUE goes to the
// system when KEY is a system key, else to its chip.
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"

namespace hwsim {

struct RunConfigs {
  Config chip;
  std::optional<Config> system;
  const Config* system_or_null() const { return system ? &*system : nullptr; }
};

// `system` empty: a run on the chip `chip` (a path or a shipped name).
RunConfigs load_run_configs(const std::string& chip, const std::string& system,
                            const std::vector<std::string>& overrides);

}  // namespace hwsim
