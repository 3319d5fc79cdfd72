#pragma once
// The JSON document of one run (schema in README.md, "JSON output"). Stable: scripts rely on it.
#include <nlohmann/json.hpp>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// The version of the result document's layout (docs/result.schema.json, "schema_version"):
// raised when a field changes meaning or goes away; adding a field keeps it.
inline constexpr int kResultSchemaVersion = 1;

// How much a document holds: every record (full), or the run's totals, its steps and the
// language-model metrics without a record per kernel (summary: --summary, for big runs).
enum class JsonDetail { full, summary };

nlohmann::json kernel_json(const WorkRecord& k);
nlohmann::json result_json(const RunResult& r, JsonDetail detail = JsonDetail::full);
// {"hwsim", "schema_version", "chip", "workload", "level", "config", "result"} (+ "system": the
// system file's name, path and resolved keys, when the run is on a system; + "detail": "summary"
// when the records were left out)
nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r,
                            const Config* system = nullptr, JsonDetail detail = JsonDetail::full);

}  // namespace hwsim
