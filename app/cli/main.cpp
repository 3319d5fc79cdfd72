// hwsim command line. Usage and exit codes: README.md.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/commands.h"
#include "app/kernel/kernel_source.h"
#include "app/sweep/sweep_mpi.h"
#include "sim/error.h"
#include "sim/input_file.h"
#include "sim/memory_budget.h"
#include "sim/output_budget.h"
#include "sim/units.h"

namespace {
// The options of a run (and of a kernel program), on the top level and on `run`.
void add_run_options(CLI::App* target, hwsim::RunOptions& run, hwsim::KernelOptions& kernel) {
  target->add_option("--chip", run.chip, "chip file or shipped chip name (configs/NAME.toml)");
  target->add_option("--system", run.system,
                     "system file or shipped system name (configs/systems/NAME.toml): chips joined by links");
  target->add_option("--workload,-w", run.workload, "workload spec, e.g. gemm:M=4096,N=4096,K=4096,dtype=bf16");
  target->add_option("--set", run.overrides, "override a config key: KEY=VALUE (repeatable)")->take_all();
  target->add_option("--json", run.json_path, "write the result document to FILE (- for stdout)");
  target->add_flag("--summary", run.summary, "JSON: totals, steps and LLM metrics, no record per kernel (--detail summary)");
  target->add_option("--detail", run.detail,
                     "JSON: full (every record) or summary; default full for a run of one step, summary for several "
                     "(generate)");
  target->add_option("--html", run.html_path, "write one self-contained HTML page: summary, charts, kernel table");
  target->add_option("--svg", run.svg_path, "write the roofline, time breakdown and timeline charts to FILE (SVG)");
  target->add_flag("--quiet,-q", run.quiet, "no text report on stdout");
  target->add_option("--kernel", kernel.kernel, "run a kernel on the warp model: .hwk, .ptx (nvcc, clang, Triton) or .cu (compiled with clang)");
  target->add_option("--entry", kernel.entry, "kernel: which kernel of a .ptx or .cu file (its name, template arguments included)");
  target->add_option("--grid", kernel.grid, "kernel: blocks in the grid, X[,Y[,Z]]");
  target->add_option("--block", kernel.block, "kernel: threads per block, X[,Y[,Z]] (default: the kernel's .reqntid, else 32)");
  target->add_option("--dynamic-shared", kernel.dynamic_shared, "kernel: bytes of dynamic shared memory (extern __shared__)");
  target->add_flag("--list", kernel.list, "kernel: list the file's kernels and their parameters, run nothing");
  target->add_option("--arg", kernel.args,
                     "kernel argument NAME=VALUE or NAME=[TYPE[COUNT]|COUNT][:INIT[:SEED]]; NAME may be the position (repeatable)");
  target->add_option("--dump", kernel.dumps, "after the run, print BUFFER or write it: BUFFER=FILE (repeatable)");
  target->add_option("--max-cycles", kernel.max_cycles, "kernel: stop with an error after this many cycles");
  target->add_option("--trace", kernel.trace_path,
                     "write a Chrome trace to FILE: the kernel timeline of a workload, or one track per warp of a kernel");
  target->add_option("--sample-sms", kernel.sample_sms, "kernel: simulate only N SMs and their share of the grid and bandwidth");
  target->add_flag("--warm-l2", kernel.warm_l2,
                   "kernel: the buffers start in L2 as a previous launch left them (a benchmark loop, CUDA graph replays)");
}

// `hwsim sweep` and its options (docs/sweeps.md).
CLI::App* add_sweep_command(CLI::App& app, hwsim::SweepCommandOptions& sweep) {
  CLI::App* sweep_cmd = app.add_subcommand("sweep", "run a workload over many values of config keys or workload fields");
  sweep_cmd->add_option("sweep_file", sweep.file, "sweep file (TOML): chip, workload, [[vary]] tables (docs/sweeps.md)");
  sweep_cmd->add_option("--chip", sweep.chip, "chip file or name");
  sweep_cmd->add_option("--system", sweep.system, "system file or name");
  sweep_cmd->add_option("--workload,-w", sweep.workload, "workload spec");
  sweep_cmd->add_option("--set", sweep.overrides, "override a config key for every point: KEY=VALUE")->take_all();
  sweep_cmd->add_option("--vary", sweep.vary, "KEY=V1,V2,... or a range 1..256*2, 1TB/s..8TB/s:8, 0..1024+128 (repeatable)");
  sweep_cmd->add_flag("--zip", sweep.zip, "pair the i-th values of every --vary instead of the cartesian product");
  sweep_cmd->add_option("--jobs,-j", sweep.jobs, "points run at a time (default and most: every core)");
  sweep_cmd->add_option("--out,-o", sweep.out, "FILE.csv or FILE.jsonl, one row per point (default: CSV on stdout)");
  sweep_cmd->add_flag("--resume", sweep.resume, "keep the rows already in --out and run only the missing points");
  sweep_cmd->add_option("--svg", sweep.svg_path, "write a chart of a metric against a varied key to FILE (needs --out FILE)");
  sweep_cmd->add_option("--plot-x", sweep.plot_x, "--svg: the varied key on the x axis (default: the first)");
  sweep_cmd->add_option("--plot-y", sweep.plot_y, "--svg: the metric column (default: tokens_per_second, else seconds)");
  return sweep_cmd;
}

// --max-memory SIZE and --max-output SIZE (every command): the host memory a run may take
// (sim/memory_budget.h) and the bytes one output file may (sim/output_budget.h).
void apply_limits(const std::string& memory, const std::string& output) {
  for (const auto& [option, text] : {std::pair<const char*, const std::string*>{"--max-memory", &memory},
                                     {"--max-output", &output}}) {
    if (text->empty()) continue;
    std::string why;
    auto bytes = hwsim::parse_quantity_as(*text, hwsim::Dimension::bytes, &why);
    if (!bytes) hwsim::usage_error(std::string(option) + " " + hwsim::shorten(*text) + ": " + why);
    if (option == std::string("--max-memory")) hwsim::set_memory_limit(*bytes);
    else hwsim::set_output_limit(*bytes);
  }
}
}  // namespace

int main(int argc, char** argv) {
  using namespace hwsim;
  CLI::App app{"hwsim: cycle-approximate simulator of AI hardware"};
  app.set_version_flag("--version", HWSIM_VERSION);
  std::string max_memory;
  app.add_option("--max-memory", max_memory,
                 "host memory a run may take, e.g. 16GiB (default 8 GiB): a bigger estimate is refused before allocating")
      ->envname("HWSIM_MAX_MEMORY");
  std::string max_output;
  app.add_option("--max-output", max_output,
                 "bytes one output file may take, e.g. 64GiB (default 4 GiB): a bigger document or trace is refused "
                 "as soon as it passes")
      ->envname("HWSIM_MAX_OUTPUT");

  RunOptions run;
  KernelOptions kernel;
  add_run_options(&app, run, kernel);
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a workload on a chip (the default)");
  add_run_options(run_cmd, run, kernel);

  ValidateOptions validate;
  CLI::App* validate_cmd = app.add_subcommand("validate", "compare predictions with a measurement file (.jsonl)");
  validate_cmd->add_option("files", validate.files, "measurement files, one JSON record per line")->required();
  auto* validate_chip = validate_cmd->add_option(
      "--chip", validate.chip, "chip file or name (none: each record runs on its own `chip` field)");
  auto* validate_system = validate_cmd->add_option("--system", validate.system,
                                                   "system file or name: validate records of several devices (collectives)");
  validate_chip->excludes(validate_system);
  validate_cmd->add_option("--set", validate.overrides, "override a config key: KEY=VALUE")->take_all();
  validate_cmd->add_option("--csv", validate.csv_path, "write one row per record to FILE");
  validate_cmd->add_option("--kind", validate.kind, "only records of this kind");
  validate_cmd->add_option("--max-mape", validate.max_mape, "exit 6 if any kind's MAPE (percent) over judged records exceeds this");
  validate_cmd->add_option("--exclude", validate.exclude,
                           "leave out the records that fitted parameters, as listed in FILE "
                           "(data/measurements/fitted.toml): accuracy judged on the others");
  validate_cmd->add_option("--where", validate.where,
                           "only records whose FIELD equals VALUE (repeatable), e.g. --where backend=MATH");

  hwsim::SweepCommandOptions sweep;
  CLI::App* sweep_cmd = add_sweep_command(app, sweep);

  std::string list_what, list_kind, list_chip;
  CLI::App* list_cmd =
      app.add_subcommand("list", "list [chips | systems | workloads | llms | models | params [KIND] | frameworks | kinds]");
  list_cmd->add_option("what", list_what, "chips, systems, workloads, llms, models, params, frameworks, kinds or kernels (none: the lists)");
  list_cmd->add_option("kind", list_kind, "with params: only the keys of this kind (gpu, systolic, mcu, cpu, spatial, system)");
  list_cmd->add_option("--chip", list_chip, "with params: what this chip sets, each key's value and where it comes from");
  app.require_subcommand(0, 1);
  for (CLI::App* command : {run_cmd, validate_cmd, sweep_cmd}) {
    command->add_option("--max-memory", max_memory, "host memory a run may take, e.g. 16GiB (default 8 GiB)");
    command->add_option("--max-output", max_output, "bytes one output file may take, e.g. 64GiB (default 4 GiB)");
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "hwsim: " << e.what() << " (see hwsim --help)\n";
    return int(ExitCode::usage);
  }

  try {
    apply_limits(max_memory, max_output);
    if (*validate_cmd) {
      return validate_command(validate);
    }
    if (*list_cmd) return list_command(list_what, list_kind, list_chip);
    if (*sweep_cmd) return sweep_command(sweep);
    if (!run.system.empty() && !run.chip.empty())
      usage_error("--chip and --system: give one (a system names its chip; --set KEY=VALUE changes chip keys too)");
    if (!run.system.empty() && !kernel.kernel.empty()) usage_error("--kernel runs on one chip: give --chip, not --system");
    if (kernel.list) {
      if (kernel.kernel.empty()) usage_error("--list lists a kernel file's kernels: give --kernel FILE");
      std::cout << list_kernel_entries(kernel.kernel);
      return 0;
    }
    if (run.chip.empty() && run.system.empty())
      usage_error("missing --chip FILE or --system FILE (e.g. --chip configs/h100.toml, --system h200x2)");
    // One simulation: under mpirun it runs once, on rank 0, and says so (a sweep spreads over ranks).
    if (MpiWorld w = launcher_world(); w.ranks > 1) {
      if (w.rank > 0) return 0;
      std::cerr << "hwsim: note: a run is one simulation; under mpirun it runs on rank 0 only (hwsim sweep deals "
                   "its points over the ranks)\n";
    }
    if (!kernel.kernel.empty()) return kernel_command(run, kernel);
    if (run.workload.empty()) usage_error("missing --workload SPEC (e.g. --workload gemm:M=4096,N=4096,K=4096,dtype=bf16)");
    run.trace_path = kernel.trace_path;
    return run_command(run);
  } catch (const UserError& e) {
    std::cerr << "hwsim: " << e.what() << "\n";
    return int(e.code());
  } catch (const std::exception& e) {
    std::cerr << "hwsim: internal error (a bug, please report): " << e.what() << "\n";
    return int(ExitCode::internal);
  }
}
