#include "app/sweep/sweep_run.h"

#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "app/cli/output_file.h"
#include "app/run_configs.h"
#include "app/sweep/process_pool.h"
#include "app/progress.h"
#include "app/sweep/sweep_exchange.h"
#include "app/sweep/sweep_output.h"
#include "app/sweep/sweep_row.h"
#include "run/simulate.h"
#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"
#include "workloads/workload.h"

namespace hwsim {

namespace {
bool varies_config(const SweepSpec& spec) {
  for (const auto& a : spec.axes) if (!a.is_workload_field()) return true;
  return false;
}
bool varies_workload(const SweepSpec& spec) {
  for (const auto& a : spec.axes) if (a.is_workload_field()) return true;
  return false;
}

// What every point shares, built once in the parent; a child inherits it through fork().
struct Shared {
  std::optional<RunConfigs> config;
  std::optional<Workload> workload;
};

// In the child: one point's simulation, its metrics as JSON text.
std::string run_point(const SweepSpec& spec, const SweepPoint& point, const Shared& shared) {
  std::optional<RunConfigs> own_config;
  if (!shared.config) {
    auto [chip, system] = point_target(spec, point);
    own_config = load_run_configs(chip, system, point_overrides(spec, point));
  }
  const RunConfigs& config = shared.config ? *shared.config : *own_config;
  std::optional<Workload> own_workload;
  if (!shared.workload) own_workload = WorkloadCatalog::build(point_workload(spec, point));
  const Workload& workload = shared.workload ? *shared.workload : *own_workload;
  RunResult r = simulate(RunRequest{config.chip, config.system_or_null(), workload});
  return run_metrics(r).dump();
}
}  // namespace

// Every chip or system a `chip`/`system` axis names loads (with the sweep's --set), up front.
void check_targets(const SweepSpec& spec) {
  for (const SweepAxis& a : spec.axes) {
    if (!a.is_target()) continue;
    if (a.key == "chip" && !spec.system.empty()) usage_error("--vary chip: the sweep runs on --system (vary system=)");
    if (a.key == "system" && !spec.chip.empty()) usage_error("--vary system: the sweep runs on --chip (vary chip=)");
    for (const auto& v : a.values)
      load_run_configs(a.key == "chip" ? v : "", a.key == "system" ? v : "", spec.overrides);
  }
}

// Whether the sweep's workload takes `field` (set to `value`, it is not reported unknown).
bool takes_field(const SweepSpec& spec, const std::string& field, const std::string& value) {
  SweepSpec one = spec;
  one.axes = {SweepAxis{"workload." + field, {value}}};
  try {
    WorkloadCatalog::build(point_workload(one, SweepPoint{0, {value}}));
  } catch (const UserError& e) {
    return std::string(e.what()).find(": " + field + ": unknown field") == std::string::npos;
  }
  return true;
}

// A key no chip has: the loader's line, or, for a field of the workload, where it goes.
[[noreturn]] void not_a_key(const SweepSpec& spec, const SweepAxis& a, const std::string& value, const std::string& line) {
  if (a.key.find('.') == std::string::npos && takes_field(spec, a.key, value))
    config_error(fmt::format("--vary {}: not a chip key; the workload takes {} (did you mean --vary workload.{}?)",
                             a.key, a.key, a.key));
  config_error(line);
}

void check_sweep_keys(const SweepSpec& spec, const SweepPoint& first) {
  check_targets(spec);
  auto [chip, system] = point_target(spec, first);
  RunConfigs base = load_run_configs(chip, system, spec.overrides);
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    const SweepAxis& a = spec.axes[k];
    if (a.is_workload_field() || a.is_target()) continue;
    bool system_key = base.system && is_system_key(a.key);
    auto keys = ParamCatalog::instance().keys_for(system_key ? "system" : base.chip.kind());
    if (std::find(keys.begin(), keys.end(), a.key) != keys.end()) continue;
    std::vector<std::string> with_key = spec.overrides;
    with_key.push_back(a.key + "=" + first.values[k]);
    try {
      load_run_configs(chip, system, with_key);  // throws the loader's line: unknown key, did you mean
    } catch (const UserError& e) {
      std::string line = e.what();
      if (line.rfind("--set: ", 0) == 0) line = "--vary " + line.substr(7);
      not_a_key(spec, a, first.values[k], line);
    }
    not_a_key(spec, a, first.values[k], fmt::format("--vary {}: not a key of a {} chip", a.key, base.chip.kind()));
  }
  Workload base_workload = WorkloadCatalog::build(spec.workload);  // the base spec must be valid
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    const SweepAxis& a = spec.axes[k];
    if (!a.is_workload_field()) continue;
    try {
      SweepSpec one = spec;
      one.axes = {a};
      WorkloadCatalog::build(point_workload(one, SweepPoint{0, {first.values[k]}}));
    } catch (const UserError& e) {
      // Only an unknown field is fatal; a bad value is that point's failure.
      if (std::string(e.what()).find(": " + a.field() + ": unknown field") != std::string::npos) throw;
    }
  }
}

std::vector<std::size_t> points_of_rank(std::size_t points, const std::map<std::size_t, std::string>& done, int rank,
                                        int ranks) {
  std::vector<std::size_t> out;
  for (auto i = std::size_t(rank); i < points; i += std::size_t(ranks))
    if (!done.count(i)) out.push_back(i);
  return out;
}

SweepSummary run_sweep(const SweepOptions& options) {
  auto start = std::chrono::steady_clock::now();
  const SweepSpec& spec = options.spec;
  std::vector<SweepPoint> points = sweep_points(spec);
  check_sweep_keys(spec, points.front());
  SweepFormat format = sweep_format(options.out);
  std::vector<std::string> columns = sweep_columns(spec);
  if (options.resume && options.out == "-") usage_error("sweep --resume needs --out FILE");
  std::map<std::size_t, std::string> done;
  if (options.resume) done = read_done_rows(options.out, format, columns, spec, points);

  Shared shared;
  if (!varies_config(spec)) shared.config = load_run_configs(spec.chip, spec.system, spec.overrides);
  if (!varies_workload(spec)) shared.workload = WorkloadCatalog::build(spec.workload);

  std::vector<std::size_t> tasks = points_of_rank(points.size(), done, options.rank, options.ranks);
  SweepSummary summary{points.size(), tasks.size(), done.size(), 0, 0};

  SweepSink sink(options, format, columns, done, points.size());
  ProgressBar bar("sweep", tasks.size(), "points");
  std::size_t finished = 0;
  const int jobs = pool_jobs(options.jobs);
  if (options.jobs > jobs)
    std::fprintf(stderr, "hwsim sweep: --jobs %d is more than the %d cores this process may use; running %d at a time\n",
                 options.jobs, jobs, jobs);
  run_in_pool(tasks, jobs,
              [&](std::size_t i) { return run_point(spec, points[i], shared); },
              [&](std::size_t i, const TaskOutcome& outcome) {
                nlohmann::ordered_json metrics;
                if (outcome.ok) metrics = nlohmann::ordered_json::parse(outcome.text);
                else ++summary.failed;
                sink.add(i, sweep_line(format, columns, sweep_row(spec, points[i], metrics, outcome.ok ? "" : one_line(outcome.text))));
                bar.update(++finished);
              });
  bar.finish();
  summary.failed += sink.finish(summary.failed);
  summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace hwsim
