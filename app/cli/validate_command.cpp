#include <fmt/format.h>
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "sim/error.h"
#include "app/validate/validate.h"
#include "viz/validation_report.h"

namespace hwsim {

int validate_command(const ValidateOptions& options) {
  ValidationReport report;
  OutputSet outputs;
  outputs.add("--csv", options.csv_path, [&] {
    std::ostringstream csv;
    write_validation_csv(csv, report);
    return csv.str();
  });
  outputs.check();
  auto records = read_measurements(options.file);
  ValidationOptions how;
  how.chip = options.chip, how.system = options.system, how.overrides = options.overrides;
  how.only_kind = options.kind, how.file = options.file;
  if (!options.exclude.empty()) how.exclude = FittedRecords::load(options.exclude);
  for (const auto& w : options.where) {
    auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0)
      usage_error(fmt::format("validate: --where {}: expected FIELD=VALUE (e.g. backend=MATH)", w));
    how.where.emplace_back(w.substr(0, eq), w.substr(eq + 1));
  }
  report = validate(records, how);
  if (!options.kind.empty() && report.rows.empty())
    usage_error(fmt::format("validate: no record of kind '{}'{} that the simulator models in {}", options.kind,
                            options.where.empty() ? "" : " with the --where fields", options.file));
  outputs.write();
  print_validation_report(std::cout, report, options.file, options.system.empty() ? options.chip : options.system);
  if (options.max_mape > 0) {
    for (const auto& k : report.kinds) {
      if (k.mape > options.max_mape) {
        std::cerr << fmt::format("hwsim: validate: {} MAPE {:.2f}% exceeds --max-mape {:.2f}%\n", k.kind, k.mape,
                                 options.max_mape);
        return int(ExitCode::validation);
      }
    }
  }
  return 0;
}

}  // namespace hwsim
