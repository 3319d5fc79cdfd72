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
  report = validate(records, ValidationOptions{options.chip, options.system, options.overrides, options.kind});
  if (!options.kind.empty() && report.rows.empty())
    usage_error(fmt::format("validate: no record of kind '{}' that the simulator models in {}", options.kind,
                            options.file));
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
