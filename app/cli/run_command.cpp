#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "sim/config/config.h"
#include "app/simulate.h"
#include "viz/chrome_trace.h"
#include "viz/json_report.h"
#include "viz/text_report.h"
#include "workloads/workload.h"

namespace hwsim {

int run_command(const RunOptions& options) {
  Config config = load_config(options.chip, options.overrides);
  Workload workload = WorkloadCatalog::build(options.workload);
  RunResult result = simulate(config, workload);
  if (!options.json_path.empty())
    write_file_atomically(options.json_path, run_document(config, workload, result).dump(2) + "\n");
  if (!options.trace_path.empty())
    write_file_atomically(options.trace_path, kernel_timeline_trace(result).dump() + "\n");
  if (!options.quiet) print_text_report(std::cout, config, workload, result);
  return 0;
}

}  // namespace hwsim
