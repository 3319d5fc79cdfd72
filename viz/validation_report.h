#pragma once
// Printers for `hwsim validate`: the per-kind table and the per-record CSV.
#include <iosfwd>

#include "sim/result_validation.h"

namespace hwsim {

void print_validation_report(std::ostream& out, const ValidationReport& report, const std::string& file,
                             const std::string& chip);
// Columns: kind, measured_s, predicted_s, error_pct, workload, then every field of the records
// (union of keys, sorted), so the file works for any measurement format.
void write_validation_csv(std::ostream& out, const ValidationReport& report);

}  // namespace hwsim
