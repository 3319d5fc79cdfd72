#pragma once
// What `hwsim validate` found (app/validate): each record's prediction beside its measurement and
// the error per kind, as plain structs; viz/validation_report formats them.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/measurement/measurement.h"

namespace hwsim {

struct ValidationRow {
  Measurement measurement;
  std::string workload;
  std::string group;              // the summary line it counts in: the kind, or "kind family"
  std::string target;             // the chip or system it ran on
  std::string role = "judge";     // "fit": it fitted a parameter (reported apart, never judged)
  std::string quantity = "seconds";  // of measured and predicted: seconds, joules or hertz
  double measured = 0;            // the record's figure compared (its `seconds` unless the plan reads another)
  double predicted = 0;
  double error = 0;   // (predicted - measured) / measured
};

struct KindSummary {
  std::string kind;           // the kind, or "kind family" (PredictionPlan::family)
  std::string target;         // the chip or system its records ran on
  std::string role = "judge"; // "fit": records that fitted parameters; "judge": the others
  int count = 0;
  double mape = 0;            // mean |error|, percent
  double median_error = 0;    // median |error|, percent
  std::vector<ValidationRow> worst;  // up to five, largest |error| first
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::map<std::string, int> excluded;  // kind → records left out because they fitted a parameter
  std::vector<KindSummary> kinds;
  std::map<std::string, int> skipped;  // kind → records not modelled (or not on this kind of chip)
  // kind → records this chip cannot run (a dtype it lacks, too large), with the first reason
  std::map<std::string, std::pair<int, std::string>> cannot_run;
  std::map<std::string, int> unplaced;  // kind → records naming no chip or system (and none given)
  // Whether the records ran on their own `chip`/`system` fields (no --chip or --system given).
  bool per_record_targets = false;
};

}  // namespace hwsim
