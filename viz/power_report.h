#pragma once
// Power and energy of a run (RunResult::power): energy by component, average power and clock,
// time throttled under the power limit, perf/W, power over time; in text and JSON. Formats only.
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace hwsim {

// The "energy" lines of the text report.
void print_power_section(std::ostream& out, const RunResult& r);
// "static 15 %, tensor_flops 58 %, ...": each nonzero component's share of the run's energy.
std::string energy_shares(const RunResult& r);
// result.power.
nlohmann::json power_json(const RunResult& r);

}  // namespace hwsim
