#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iterator>
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
  std::vector<Measurement> records;
  for (const auto& file : options.files) {
    auto more = read_measurements(file);
    records.insert(records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  const std::string files = fmt::format("{}", fmt::join(options.files, " "));
  ValidationOptions how;
  how.chip = options.chip, how.system = options.system, how.overrides = options.overrides;
  how.only_kind = options.kind, how.file = options.files.size() == 1 ? options.files.front() : "";
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
                            options.where.empty() ? "" : " with the --where fields", files));
  outputs.write();
  print_validation_report(std::cout, report, files, options.system.empty() ? options.chip : options.system);
  if (options.max_mape > 0) {
    for (const auto& k : report.kinds) {
      if (k.role == "judge" && k.mape > options.max_mape) {
        std::cerr << fmt::format("hwsim: validate: {} on {} MAPE {:.2f}% exceeds --max-mape {:.2f}%\n", k.kind,
                                 k.target, k.mape, options.max_mape);
        return int(ExitCode::validation);
      }
    }
  }
  return 0;
}

}  // namespace hwsim
