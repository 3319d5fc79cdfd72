#include "ops/device.h"
#include "app/validate/validate.h"

#include "app/progress.h"
#include "app/run_configs.h"
#include "sim/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "run/simulate.h"
#include "viz/json_report.h"
#include "workloads/workload.h"

namespace hwsim {

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

namespace {
std::string run_plan(const PredictionPlan& plan, const ValidationOptions& options) {
  if (plan.simulate) return plan.simulate(options.chip, options.overrides);
  Workload workload = WorkloadCatalog::build(plan.workload);
  RunConfigs configs = load_run_configs(options.chip, options.system, options.overrides);
  RunResult result = simulate(RunRequest{configs.chip, configs.system_or_null(), workload});
  return run_document(configs.chip, workload, result, configs.system_or_null()).dump();
}

// The device kind of the validate run's chip (a bad chip or system fails once, up front).
std::string chip_kind(const ValidationOptions& options) {
  return load_run_configs(options.chip, options.system, options.overrides).chip.kind();
}
}  // namespace

namespace {
// Whether the record's `key` field spells `value` (numbers by value, booleans as true/false).
bool field_is(const Measurement& m, const std::string& key, const std::string& value) {
  if (!m.fields.contains(key)) return false;
  const auto& f = m.fields[key];
  if (f.is_string()) return f.get<std::string>() == value;
  if (f.is_boolean()) return (f.get<bool>() ? "true" : "false") == value;
  if (f.is_number()) {
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    return end && *end == '\0' && !value.empty() && f.get<double>() == v;
  }
  return false;
}
}  // namespace

ValidationReport validate(const std::vector<Measurement>& records, const ValidationOptions& options) {
  const std::string kind = chip_kind(options);
  const bool on_system = !options.system.empty();
  ValidationReport report;
  ProgressBar bar("validate", records.size(), "records");
  std::size_t seen = 0;
  for (const auto& m : records) {
    bar.update(seen++);
    if (!options.only_kind.empty() && m.kind != options.only_kind) continue;
    bool selected = true;
    for (const auto& [key, value] : options.where) selected = selected && field_is(m, key, value);
    if (!selected) continue;
    if (!options.exclude.fitted(m, options.file).empty()) {
      ++report.excluded[m.kind];
      continue;
    }
    auto adapter = MeasurementKinds::adapters().find(m.kind);
    std::optional<PredictionPlan> plan;
    if (adapter != MeasurementKinds::adapters().end() && m.seconds > 0) plan = adapter->second(m);
    if (plan && plan->measured && !(plan->measured(m) > 0)) plan.reset();  // nothing to compare
    if (!plan || (!plan->device_kind.empty() && plan->device_kind != kind) || plan->needs_system != on_system) {
      ++report.skipped[m.kind];
      continue;
    }
    std::string text;
    try {
      text = run_isolated([&]() {
        ProgressBar::silence_process();
        return run_plan(*plan, options);
      });
    } catch (const UserError& e) {
      if (e.code() != ExitCode::workload) throw;
      auto& [count, reason] = report.cannot_run[m.kind];
      if (count++ == 0) reason = e.what();
      continue;
    }
    auto document = nlohmann::json::parse(text);
    ValidationRow row;
    row.measurement = m;
    row.workload = plan->workload;
    row.group = plan->family.empty() ? m.kind : m.kind + " " + plan->family;
    row.quantity = plan->quantity;
    row.measured = plan->measured ? plan->measured(m) : m.seconds;
    row.predicted = plan->predicted_seconds ? plan->predicted_seconds(document)
                                            : document["result"]["seconds"].get<double>();
    row.error = (row.predicted - row.measured) / row.measured;
    report.rows.push_back(std::move(row));
  }
  std::map<std::string, std::vector<const ValidationRow*>> by_kind;
  for (const auto& row : report.rows) by_kind[row.group].push_back(&row);
  for (const auto& [kind, rows] : by_kind) {
    KindSummary s;
    s.kind = kind;
    s.count = int(rows.size());
    std::vector<double> errors;
    for (const auto* r : rows) errors.push_back(100 * std::fabs(r->error));
    double sum = 0;
    for (double e : errors) sum += e;
    s.mape = sum / double(errors.size());
    s.median_error = median(errors);
    std::vector<const ValidationRow*> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(), [](const ValidationRow* a, const ValidationRow* b) {
      return std::fabs(a->error) > std::fabs(b->error);
    });
    for (std::size_t i = 0; i < sorted.size() && i < 5; ++i) s.worst.push_back(*sorted[i]);
    report.kinds.push_back(std::move(s));
  }
  return report;
}

}  // namespace hwsim
