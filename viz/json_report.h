#pragma once
// The JSON document of one run (schema in README.md, "JSON output"). Stable: scripts rely on it.
#include <nlohmann/json.hpp>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

nlohmann::json kernel_json(const WorkRecord& k);
nlohmann::json result_json(const RunResult& r);
// {"hwsim", "chip", "workload", "level", "config", "result"} (+ "system": the system file's name,
// path and resolved keys, when the run is on a system)
nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r,
                            const Config* system = nullptr);

}  // namespace hwsim
