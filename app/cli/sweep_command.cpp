// hwsim sweep: many runs of one workload from one command (docs/sweeps.md).
#include <fmt/format.h>
#include <iostream>
#include <unistd.h>

#include "app/cli/commands.h"
#include <algorithm>
#include <filesystem>

#include "app/cli/output_file.h"
#include "app/sweep/sweep_file.h"
#include "app/sweep/sweep_plot.h"
#include "app/sweep/sweep_row.h"
#include "app/sweep/sweep_mpi.h"
#include "app/sweep/sweep_run.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {

namespace {
// The sweep file's spec (if any) with the command line's options on top: --chip/--system and
// --workload replace the file's, --set and --vary add to them, --zip turns zip on.
SweepSpec build_spec(const SweepCommandOptions& o) {
  SweepSpec spec = o.file.empty() ? SweepSpec{} : load_sweep_file(o.file);
  if (!o.chip.empty() || !o.system.empty()) spec.chip = o.chip, spec.system = o.system;
  if (!o.workload.empty()) spec.workload = o.workload;
  // --set workload.FIELD=VALUE fixes a field of the workload for every point; the rest set keys.
  for (const auto& set : o.overrides) {
    if (set.rfind("workload.", 0) != 0 || set.find('=') == std::string::npos) {
      spec.overrides.push_back(set);
      continue;
    }
    SweepSpec fixed = spec;
    fixed.axes = {SweepAxis{set.substr(0, set.find('=')), {set.substr(set.find('=') + 1)}}};
    spec.workload = point_workload(fixed, SweepPoint{0, fixed.axes.front().values});
  }
  for (const auto& v : o.vary) {
    std::size_t held = 0;
    for (const auto& a : spec.axes) held += a.values.size();
    spec.axes.push_back(parse_vary(v, held));
  }
  spec.zip = spec.zip || o.zip;
  if (!spec.chip.empty() && !spec.system.empty()) usage_error("sweep: give --chip or --system, not both");
  bool target_axis = std::any_of(spec.axes.begin(), spec.axes.end(), [](const SweepAxis& a) { return a.is_target(); });
  if (spec.chip.empty() && spec.system.empty() && !target_axis)
    usage_error("sweep: missing --chip NAME or --system NAME (or chip = in the sweep file, or --vary chip=A,B)");
  if (spec.workload.empty()) usage_error("sweep: missing --workload SPEC (or workload = in the sweep file)");
  return spec;
}
}  // namespace

int sweep_command(const SweepCommandOptions& o) {
  if (o.jobs < 0) usage_error(fmt::format("sweep --jobs {}: give a count ≥ 1 (0 or none: every core)", o.jobs));
  // Each job is a process with a simulation of its own: bounded, so a typo cannot fork thousands.
  constexpr int kMaxJobs = 1024;
  if (o.jobs > kMaxJobs) usage_error(fmt::format("sweep --jobs {}: at most {} processes at a time", o.jobs, kMaxJobs));
  MpiWorld world = start_mpi_if_launched();
  struct StopMpi { ~StopMpi() { stop_mpi(); } } stop;
  SweepOptions options;
  options.spec = build_spec(o);
  options.out = o.out;
  options.resume = o.resume;
  options.jobs = o.jobs;
  options.rank = world.rank;
  options.ranks = world.ranks;
  // --svg without --out: the rows go to a temporary CSV the picture is drawn from, then to stdout.
  std::string rows_path = o.out;
  if (!o.svg_path.empty() && o.out == "-") {
    if (o.resume) usage_error("sweep --resume needs --out FILE");
    rows_path = (std::filesystem::temp_directory_path() / fmt::format("hwsim-sweep-{}.csv", ::getpid())).string();
    options.out = rows_path;
  }
  struct RemoveRows {
    std::string path;
    ~RemoveRows() { if (!path.empty()) std::filesystem::remove(path); }
  } remove_rows{rows_path != o.out ? rows_path : std::string()};
  if (!o.plot_x.empty() && std::none_of(options.spec.axes.begin(), options.spec.axes.end(),
                                        [&](const SweepAxis& a) { return a.key == o.plot_x; }))
    usage_error(fmt::format("sweep --plot-x {}: not a varied key", o.plot_x));
  const auto metrics = plot_metric_columns(options.spec);
  if (!o.plot_y.empty() && std::find(metrics.begin(), metrics.end(), o.plot_y) == metrics.end())
    usage_error(fmt::format("sweep --plot-y {}: not a numeric metric column (seconds, tokens_per_second, ...)", o.plot_y));
  OutputSet outputs;  // --out streams its rows (for --resume); checked here against --svg
  if (o.out != "-") outputs.add("--out", o.out, OutputWriter{});
  outputs.add("--svg", o.svg_path, OutputWriter{});
  outputs.check();
  SweepSummary s = run_sweep(options);
  if (world.rank == 0 && !o.svg_path.empty())
    write_output(o.svg_path, sweep_plot(options.spec, rows_path, sweep_format(rows_path), o.plot_x, o.plot_y));
  if (world.rank == 0 && rows_path != o.out) std::cout << read_input_file(rows_path, "sweep rows") << std::flush;
  if (world.rank == 0 && s.failed > 0)
    std::cerr << fmt::format("hwsim: sweep: {} of {} points failed (status \"error\" in {})\n", s.failed, s.points,
                             o.out == "-" ? "the output" : o.out);
  if (world.rank == 0 && ::isatty(2))
    std::cerr << fmt::format("hwsim: sweep: {} points ({} run, {} kept) in {:.1f} s\n", s.points, s.ran, s.skipped,
                             s.wall_seconds);
  return 0;
}

}  // namespace hwsim
