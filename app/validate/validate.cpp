#include "ops/device.h"
#include "app/validate/validate.h"
#include "app/validate/validate_target.h"

#include "app/progress.h"
#include "app/run_configs.h"
#include "sim/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

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
std::string run_plan(const PredictionPlan& plan, const ValidateTarget& target) {
  if (plan.simulate) return plan.simulate(target.chip, target.overrides);
  Workload workload = WorkloadCatalog::build(plan.workload);
  RunConfigs configs = load_run_configs(target.chip, target.system, target.overrides);
  RunResult result = simulate(RunRequest{configs.chip, configs.system_or_null(), workload});
  return run_document(configs.chip, workload, result, configs.system_or_null()).dump();
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

namespace {
// One summary per (target, kind group, role): count, MAPE, median, the five worst.
std::vector<KindSummary> summarise(const std::vector<ValidationRow>& rows) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<const ValidationRow*>> groups;
  for (const auto& row : rows) groups[{row.target, row.group, row.role == "fit" ? "0fit" : "1judge"}].push_back(&row);
  std::vector<KindSummary> out;
  for (const auto& [key, members] : groups) {
    KindSummary s;
    s.target = std::get<0>(key), s.kind = std::get<1>(key), s.role = members.front()->role;
    s.count = int(members.size());
    std::vector<double> errors;
    for (const auto* r : members) errors.push_back(100 * std::fabs(r->error));
    double sum = 0;
    for (double e : errors) sum += e;
    s.mape = sum / double(errors.size());
    s.median_error = median(errors);
    std::vector<const ValidationRow*> sorted = members;
    std::stable_sort(sorted.begin(), sorted.end(), [](const ValidationRow* a, const ValidationRow* b) {
      return std::fabs(a->error) > std::fabs(b->error);
    });
    for (std::size_t i = 0; i < sorted.size() && i < 5; ++i) s.worst.push_back(*sorted[i]);
    out.push_back(std::move(s));
  }
  return out;
}

// Whether the record passes --kind and --where.
bool selected(const Measurement& m, const ValidationOptions& options) {
  if (!options.only_kind.empty() && m.kind != options.only_kind) return false;
  for (const auto& [key, value] : options.where)
    if (!field_is(m, key, value)) return false;
  return true;
}
}  // namespace

ValidationReport validate(const std::vector<Measurement>& records, const ValidationOptions& options) {
  ValidationReport report;
  report.per_record_targets = options.chip.empty() && options.system.empty();
  TargetKinds kinds;
  if (!report.per_record_targets) kinds.kind(target_of(Measurement{}, options), Measurement{});  // fails up front
  ProgressBar bar("validate", records.size(), "records");
  std::size_t seen = 0;
  for (const auto& m : records) {
    bar.update(seen++);
    if (!selected(m, options)) continue;
    const std::string role = role_of(m);
    if (!options.exclude.fitted(m, m.file.empty() ? options.file : m.file).empty()) {
      ++report.excluded[m.kind];
      continue;
    }
    ValidateTarget target = target_of(m, options);
    if (target.empty()) {
      ++report.unplaced[m.kind];
      continue;
    }
    const std::string& kind = kinds.kind(target, m);
    auto adapter = MeasurementKinds::adapters().find(m.kind);
    std::optional<PredictionPlan> plan;
    if (adapter != MeasurementKinds::adapters().end() && m.seconds > 0) plan = adapter->second(m);
    if (plan && plan->measured && !(plan->measured(m) > 0)) plan.reset();  // nothing to compare
    const bool on_system = !target.system.empty();
    if (!plan || (!plan->device_kind.empty() && plan->device_kind != kind) || plan->needs_system != on_system) {
      ++report.skipped[m.kind];
      continue;
    }
    std::string text;
    try {
      text = run_isolated([&]() {
        ProgressBar::silence_process();
        return run_plan(*plan, target);
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
    row.target = target.label, row.role = role;
    row.quantity = plan->quantity;
    row.measured = plan->measured ? plan->measured(m) : m.seconds;
    row.predicted = plan->predicted_seconds ? plan->predicted_seconds(document)
                                            : document["result"]["seconds"].get<double>();
    row.error = (row.predicted - row.measured) / row.measured;
    report.rows.push_back(std::move(row));
  }
  report.kinds = summarise(report.rows);
  return report;
}

}  // namespace hwsim
