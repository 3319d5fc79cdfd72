#include "app/validate/validate.h"

#include "app/progress.h"
#include "sim/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "app/simulate.h"
#include "app/system_simulate.h"
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
// On a system run, --set KEY=VALUE goes to the system when KEY is a system key, else to its chip.
void split_overrides(const std::vector<std::string>& all, std::vector<std::string>& system, std::vector<std::string>& chip) {
  for (const auto& o : all) (is_system_key(o.substr(0, o.find('='))) ? system : chip).push_back(o);
}

std::string run_plan(const PredictionPlan& plan, const ValidationOptions& options) {
  if (plan.simulate) return plan.simulate(options.chip, options.overrides);
  Workload workload = WorkloadCatalog::build(plan.workload);
  if (!options.system.empty()) {
    std::vector<std::string> system_sets, chip_sets;
    split_overrides(options.overrides, system_sets, chip_sets);
    Config system = load_system_config(options.system, system_sets);
    Config config = load_config(system.text("system.chip"), chip_sets);
    RunResult result = simulate_system(system, config, workload);
    return run_document(config, workload, result, &system).dump();
  }
  Config config = load_config(options.chip, options.overrides);
  RunResult result = simulate(config, workload);
  return run_document(config, workload, result).dump();
}

// The device kind of the validate run's chip (a bad chip or system fails once, up front).
std::string chip_kind(const ValidationOptions& options) {
  if (options.system.empty()) return load_config(options.chip, options.overrides).kind();
  std::vector<std::string> system_sets, chip_sets;
  split_overrides(options.overrides, system_sets, chip_sets);
  Config system = load_system_config(options.system, system_sets);
  return load_config(system.text("system.chip"), chip_sets).kind();
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
