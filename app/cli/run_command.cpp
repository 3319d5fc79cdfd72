#include <iostream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "sim/config/config.h"
#include "sim/error.h"
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
// What a run streams to the JSON and trace writers while it runs (a run of several steps does not
// keep its records): the sinks, empty where a writer takes the records kept in the result.
struct Streams {
  std::unique_ptr<JsonKernelStream> json;
  std::unique_ptr<ChromeTraceStream> trace;
};

// Writes what the options ask for: the JSON document, the Chrome trace, the text report.
int report(const RunOptions& options, JsonDetail detail, const Config& config, const Workload& workload,
           const RunResult& result, const Config* system, const Streams& streams = {});

// The JSON document's detail: --detail, else --summary, else every record for a run of one step
// and the summary for a run of several (a long generate's records number in the millions).
JsonDetail json_detail(const RunOptions& options, const Workload& workload) {
  if (options.detail == "full") return JsonDetail::full;
  if (options.detail == "summary" || options.summary) return JsonDetail::summary;
  if (!options.detail.empty())
    usage_error("--detail: '" + options.detail + "' is not one of full, summary (default: full for a run of one step, "
                "summary for several)");
  return workload.steps.size() > 1 ? JsonDetail::summary : JsonDetail::full;
}

// On a system run, --set KEY=VALUE goes to the system when KEY is a system key, else to its chip.
std::pair<std::vector<std::string>, std::vector<std::string>> split_overrides(const std::vector<std::string>& all) {
  std::vector<std::string> system, chip;
  for (const auto& o : all) (is_system_key(o.substr(0, o.find('='))) ? system : chip).push_back(o);
  return {system, chip};
}

// The workload's warnings on stderr (the run goes on).
Workload build_workload(const std::string& spec) {
  Workload workload = WorkloadCatalog::build(spec);
  for (const auto& w : workload.warnings) std::cerr << "hwsim: warning: " << w << "\n";
  return workload;
}
}  // namespace

namespace {
// The run's output files, checked before the simulation (two outputs naming one file, a
// missing folder) and written all or nothing after it.
OutputSet run_outputs(const RunOptions& options, JsonDetail detail, const Config& config, const Workload* workload,
                      const RunResult* result, const Config* system, const Streams* streams) {
  OutputSet out;
  out.add("--json", options.json_path, OutputWriter([=, &config](std::ostream& os) {
            write_run_document(os, config, *workload, *result, system, detail, streams->json.get());
            os << '\n';
          }));
  out.add("--trace", options.trace_path, OutputWriter([=](std::ostream& os) {
            if (result->serving.present)  // a serve run: requests and engine steps over time
              os << serving_timeline_trace(*result).dump();
            else
              write_kernel_timeline_trace(os, *result, streams->trace.get());
            os << '\n';
          }));
  out.add("--html", options.html_path, [=, &config] { return html_report(config, *workload, *result); });
  out.add("--svg", options.svg_path, [=] { return svg_report(*result); });
  return out;
}
}  // namespace

int run_command(const RunOptions& options) {
  run_outputs(options, JsonDetail::full, Config(), nullptr, nullptr, nullptr, nullptr).check();
  if (!options.system.empty()) {
    auto [system_sets, chip_sets] = split_overrides(options.overrides);
    Config system = load_system_config(options.system, system_sets);
    Config config = load_config(system.text("system.chip"), chip_sets);
    Workload workload = build_workload(options.workload);
    JsonDetail detail = json_detail(options, workload);  // a bad --detail stops before the run
    RunResult result = simulate_system(system, config, workload);
    return report(options, detail, config, workload, result, &system);
  }
  Config config = load_config(options.chip, options.overrides);
  Workload workload = build_workload(options.workload);
  JsonDetail detail = json_detail(options, workload);
  RunStreams run;
  Streams streams;
  // The pictures draw records: they keep them all. Otherwise a run of several steps hands each
  // step's records to the writers that want them and drops them.
  run.keep_records = !options.html_path.empty() || !options.svg_path.empty();
  if (workload.steps.size() > 1 && !run.keep_records) {
    if (!options.json_path.empty() && detail == JsonDetail::full)
      run.sinks.push_back((streams.json = std::make_unique<JsonKernelStream>()).get());
    if (!options.trace_path.empty()) run.sinks.push_back((streams.trace = std::make_unique<ChromeTraceStream>()).get());
  }
  RunResult result = simulate(config, workload, run);
  return report(options, detail, config, workload, result, nullptr, streams);
}

namespace {
int report(const RunOptions& options, JsonDetail detail, const Config& config, const Workload& workload,
           const RunResult& result, const Config* system, const Streams& streams) {
  OutputSet outputs = run_outputs(options, detail, config, &workload, &result, system, &streams);
  outputs.write();
  // "-" puts a document on stdout: the text report stays off it.
  if (!options.quiet && !outputs.takes_stdout()) print_text_report(std::cout, config, workload, result);
  return 0;
}

}  // namespace

}  // namespace hwsim
