#pragma once
// `hwsim validate`: predicts every understood record of a measurement file, one isolated
// simulation per record, and summarises the error per kind.
#include <map>
#include <string>
#include <vector>

#include "app/validate/measurement.h"

namespace hwsim {

struct ValidationRow {
  Measurement measurement;
  std::string workload;
  std::string group;              // the summary line it counts in: the kind, or "kind family"
  std::string quantity = "seconds";  // of measured and predicted: seconds, joules or hertz
  double measured = 0;            // the record's figure compared (its `seconds` unless the plan reads another)
  double predicted = 0;
  double error = 0;   // (predicted - measured) / measured
};

struct KindSummary {
  std::string kind;           // the kind, or "kind family" (PredictionPlan::family)
  int count = 0;
  double mape = 0;            // mean |error|, percent
  double median_error = 0;    // median |error|, percent
  std::vector<ValidationRow> worst;  // up to five, largest |error| first
};

// Records that fitted a parameter (data/measurements/fitted.toml, docs/calibration.md): a record of
// measurement file `file` (its base name; empty: any file) and kind `kind` whose fields equal every
// entry of `match` was used to fit `parameter`, so accuracy must not be judged on it.
struct FittedRecords {
  struct Entry {
    std::string parameter, file, kind;
    nlohmann::json match;  // field → value
  };
  std::vector<Entry> entries;
  // The parameter `m` (of file `file`) fitted, or "" when it fitted none.
  std::string fitted(const Measurement& m, const std::string& file) const;
  // Parses FILE (TOML: [[fitted]] tables with parameter, file, kind, match); a malformed entry is a
  // UserError naming file:line and the key.
  static FittedRecords load(const std::string& path);
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::map<std::string, int> excluded;  // kind → records left out because they fitted a parameter
  std::vector<KindSummary> kinds;
  std::map<std::string, int> skipped;  // kind → records not modelled (or not on this kind of chip)
  // kind → records this chip cannot run (a dtype it lacks, too large), with the first reason
  std::map<std::string, std::pair<int, std::string>> cannot_run;
};

struct ValidationOptions {
  std::string chip;
  std::string system;                  // --system: records of several devices run on it
  std::vector<std::string> overrides;  // --set
  std::string only_kind;               // --kind
  FittedRecords exclude;               // --exclude: records judged nowhere (they fitted parameters)
  // --where FIELD=VALUE (repeatable): only records whose field equals the value (a number compares
  // by value, true/false as booleans, anything else as text): one contrast of a kind, e.g.
  // backend=FLASH_ATTENTION.
  std::vector<std::pair<std::string, std::string>> where;
  std::string file;                    // the measurement file (its base name matches FittedRecords)
};

ValidationReport validate(const std::vector<Measurement>& records, const ValidationOptions& options);

}  // namespace hwsim
