#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/progress.h"
#include "app/run_configs.h"
#include "ops/device.h"
#include "run/simulate.h"
#include "sim/config/config.h"
#include "sim/error.h"
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
  // A serving run's records are its distinct passes' (about 800 a pass): the summary by default.
  return workload.steps.size() > 1 || workload.serve ? JsonDetail::summary : JsonDetail::full;
}

// The workload's warnings on stderr, once the run has run (a run refused after them, e.g. one
// that does not fit, says one line, its error).
void print_warnings(const Workload& workload) {
  for (const auto& w : workload.warnings) std::cerr << "hwsim: warning: " << w << "\n";
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
  RunConfigs configs = load_run_configs(options.chip, options.system, options.overrides);
  const Config* system = configs.system_or_null();
  Workload workload = WorkloadCatalog::build(options.workload);
  JsonDetail detail = json_detail(options, workload);  // a bad --detail stops before the run
  RunStreams run;
  Streams streams;
  // The pictures draw records: they keep them all. Otherwise a run of several steps hands each
  // step's records to the writers that want them and drops them.
  run.keep_records = !options.html_path.empty() || !options.svg_path.empty();
  // A serving run's records (its distinct passes') come at its end, for the writers to read from
  // the result: kept only for those that write records.
  if (workload.serve && (!options.trace_path.empty() || (!options.json_path.empty() && detail == JsonDetail::full)))
    run.keep_records = true;
  if (workload.steps.size() > 1 && !run.keep_records) {
    if (!options.json_path.empty() && detail == JsonDetail::full)
      run.sinks.push_back((streams.json = std::make_unique<JsonKernelStream>()).get());
    if (!options.trace_path.empty()) run.sinks.push_back((streams.trace = std::make_unique<ChromeTraceStream>()).get());
  }
  // A bar only for runs of several steps (generate), only on a terminal, never in a sweep's child.
  std::optional<ProgressBar> bar;
  if (workload.steps.size() > 1) {
    bar.emplace("simulate", workload.steps.size(), "steps");
    run.progress = [&bar](std::size_t done, std::size_t) { bar->update(done); };
  }
  RunResult result = simulate(RunRequest{configs.chip, system, workload, run});
  if (bar) bar->finish();
  print_warnings(workload);
  return report(options, detail, configs.chip, workload, result, system, streams);
}

namespace {
int report(const RunOptions& options, JsonDetail detail, const Config& config, const Workload& workload,
           const RunResult& result, const Config* system, const Streams& streams) {
  OutputSet outputs = run_outputs(options, detail, config, &workload, &result, system, &streams);
  outputs.write();
  // "-" puts a document on stdout: the text report stays off it.
  if (!options.quiet && !outputs.takes_stdout()) print_text_report(std::cout, config, workload, result, options.json_path.empty());
  return 0;
}

}  // namespace

}  // namespace hwsim
