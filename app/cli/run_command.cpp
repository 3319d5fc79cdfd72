#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "sim/config/config.h"
#include "app/simulate.h"
#include "app/system_simulate.h"
#include "viz/chrome_trace.h"
#include "viz/html_report.h"
#include "viz/json_report.h"
#include "viz/serving_trace.h"
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

int run_command(const RunOptions& options) {
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
  JsonDetail detail = options.summary ? JsonDetail::summary : JsonDetail::full;
  if (!options.json_path.empty())
    write_output(options.json_path, run_document(config, workload, result, system, detail).dump(2) + "\n");
  if (!options.trace_path.empty())
    write_output(options.trace_path,  // a serve run: requests and engine steps over time
                 (result.serving.present ? serving_timeline_trace(result) : kernel_timeline_trace(result)).dump() + "\n");
  if (!options.html_path.empty()) write_output(options.html_path, html_report(config, workload, result));
  if (!options.svg_path.empty()) write_output(options.svg_path, svg_report(result));
  // "-" puts a document on stdout: the text report stays off it.
  bool stdout_taken = is_stdout_path(options.json_path) || is_stdout_path(options.trace_path) ||
                      is_stdout_path(options.html_path) || is_stdout_path(options.svg_path);
  if (!options.quiet && !stdout_taken) print_text_report(std::cout, config, workload, result);
  return 0;
}

}  // namespace

}  // namespace hwsim
