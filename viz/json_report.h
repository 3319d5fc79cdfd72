#pragma once
// The JSON document of one run (schema in README.md, "JSON output"). Stable: scripts rely on it.
// The document is written as text: its records (result.steps[].kernels[]) formatted directly
// (viz/json_text.h), each step's as soon as the step has run when the run streams them
// (JsonKernelStream), the rest with nlohmann::json. The text is what nlohmann's dump(2) of the
// whole document would be, byte for byte.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

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

// A record's JSON object (an entry of result.steps[].kernels[]), appended to `out` as dump(2)
// writes it at nesting `depth`.
void append_kernel_json(std::string& out, const WorkRecord& k, int depth);

// Takes each step's records as the run hands them out (a StepSink) and keeps their JSON text in a
// temporary file, not in memory, until the document is written.
class JsonKernelStream : public StepSink {
 public:
  JsonKernelStream();
  ~JsonKernelStream() override;
  void add_step(const StepResult& step) override;
  // Copies step `index`'s kernels array to `out`.
  void copy_step(std::size_t index, std::ostream& out) const;

 private:
  std::FILE* spill_;
  std::vector<long> offsets_;  // step i's text is [offsets_[i], offsets_[i+1])
  std::string buffer_;
};

// Writes the document: {"hwsim", "schema_version", "chip", "workload", "level", "config",
// "result"} (+ "system": the system file's name, path and resolved keys, when the run is on a
// system; + "detail": "summary" when the records were left out). With full detail, a step's
// kernels come from its kept records, else from `stream` (which then saw every step).
void write_run_document(std::ostream& out, const Config& config, const Workload& workload, const RunResult& r,
                        const Config* system = nullptr, JsonDetail detail = JsonDetail::full,
                        const JsonKernelStream* stream = nullptr);

// The same document as a value (validate reads fields of it).
nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r,
                            const Config* system = nullptr, JsonDetail detail = JsonDetail::full);

}  // namespace hwsim
