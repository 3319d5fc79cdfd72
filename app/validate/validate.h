#pragma once
// `hwsim validate`: predicts every understood record of a measurement file, one isolated
// simulation per record, and summarises the error per kind.
#include <map>
#include <string>
#include <vector>

#include "sim/measurement/measurement.h"
#include "sim/result_validation.h"

namespace hwsim {

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
