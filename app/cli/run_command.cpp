#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "sim/config/config.h"
#include "app/simulate.h"
#include "app/system_simulate.h"
#include "viz/chrome_trace.h"
#include "viz/html_report.h"
#include "viz/json_report.h"
#include "viz/text_report.h"
#include "workloads/workload.h"

namespace hwsim {

namespace {
// Writes what the options ask for: the JSON document, the Chrome trace, the text report.
int report(const RunOptions& options, const Config& config, const Workload& workload, const RunResult& result,
           const Config* system);

// On a system run, --set KEY=VALUE goes to the system when KEY is a system key, else to its chip.
std::pair<std::vector<std::string>, std::vector<std::string>> split_overrides(const std::vector<std::string>& all) {
  std::vector<std::string> system, chip;
  for (const auto& o : all) (is_system_key(o.substr(0, o.find('='))) ? system : chip).push_back(o);
  return {system, chip};
}
}  // namespace

namespace {
// The run's output files, checked before the simulation (two outputs naming one file, a
// missing folder) and written all or nothing after it.
OutputSet run_outputs(const RunOptions& options, const Config& config, const Workload* workload,
                      const RunResult* result, const Config* system) {
  OutputSet out;
  JsonDetail detail = options.summary ? JsonDetail::summary : JsonDetail::full;
  out.add("--json", options.json_path,
          [=, &config] { return run_document(config, *workload, *result, system, detail).dump(2) + "\n"; });
  out.add("--trace", options.trace_path, [=] { return kernel_timeline_trace(*result).dump() + "\n"; });
  out.add("--html", options.html_path, [=, &config] { return html_report(config, *workload, *result); });
  out.add("--svg", options.svg_path, [=] { return svg_report(*result); });
  return out;
}
}  // namespace

int run_command(const RunOptions& options) {
  run_outputs(options, Config(), nullptr, nullptr, nullptr).check();
  if (!options.system.empty()) {
    auto [system_sets, chip_sets] = split_overrides(options.overrides);
    Config system = load_system_config(options.system, system_sets);
    Config config = load_config(system.text("system.chip"), chip_sets);
    Workload workload = WorkloadCatalog::build(options.workload);
    RunResult result = simulate_system(system, config, workload);
    return report(options, config, workload, result, &system);
  }
  Config config = load_config(options.chip, options.overrides);
  Workload workload = WorkloadCatalog::build(options.workload);
  RunResult result = simulate(config, workload);
  return report(options, config, workload, result, nullptr);
}

namespace {
int report(const RunOptions& options, const Config& config, const Workload& workload, const RunResult& result,
           const Config* system) {
  OutputSet outputs = run_outputs(options, config, &workload, &result, system);
  outputs.write();
  // "-" puts a document on stdout: the text report stays off it.
  if (!options.quiet && !outputs.takes_stdout()) print_text_report(std::cout, config, workload, result);
  return 0;
}

}  // namespace

}  // namespace hwsim
