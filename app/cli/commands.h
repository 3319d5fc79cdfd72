#pragma once
// The hwsim subcommands. Each returns the process exit code; user errors are thrown as UserError
// and turned into one line on stderr by main().
#include <string>
#include <vector>

namespace hwsim {

struct RunOptions {
  std::string chip;
  std::string system;                  // --system: a system of chips instead of one chip
  std::string workload;
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string json_path;               // --json FILE ("" = none)
  std::string trace_path;              // --trace FILE: Chrome trace of the kernel timeline ("" = none)
  bool quiet = false;                  // no text report
  bool summary = false;                // --summary: the JSON document without a record per kernel
  std::string detail;                  // --detail full|summary ("" = full for one step, summary for several)
  std::string html_path;               // --html FILE: one self-contained page with pictures ("" = none)
  std::string svg_path;                // --svg FILE: the run's charts in one SVG ("" = none)
};
int run_command(const RunOptions& options);

struct ValidateOptions {
  std::vector<std::string> files;      // measurement files, read in order
  std::string chip;
  std::string system;                  // --system: validate records of several devices (collectives)
  std::vector<std::string> overrides;
  std::string csv_path;
  std::string kind;
  double max_mape = 0;  // > 0: exit 6 when a kind's MAPE exceeds it
  std::string exclude;  // --exclude FILE: leave out the records that fitted parameters (TOML)
  std::vector<std::string> where;  // --where FIELD=VALUE: only records with that field value
};
int validate_command(const ValidateOptions& options);

// A kernel program on the warp model (sim/cli/kernel_command.cpp): --kernel FILE.hwk.
struct KernelOptions {
  std::string kernel;                  // .hwk, .ptx or .cu file
  std::string entry;                   // --entry NAME: which kernel of a .ptx/.cu file ("" = its only one)
  std::string grid = "1", block;       // --grid X[,Y[,Z]], --block X[,Y[,Z]] ("" = .reqntid, else 32)
  long long dynamic_shared = 0;        // --dynamic-shared BYTES: a PTX kernel's extern shared array
  bool list = false;                   // --list: the file's kernels and their parameters
  std::vector<std::string> args;       // --arg NAME=SPEC
  std::vector<std::string> dumps;      // --dump BUFFER or BUFFER=FILE
  long long max_cycles = 0;            // 0 = no limit
  std::string trace_path;              // --trace FILE: Chrome trace, one track per warp
  int sample_sms = 0;                  // --sample-sms N: simulate N SMs and their share of the grid
  bool warm_l2 = false;                // --warm-l2: buffers in L2 as a previous launch left them
};
int kernel_command(const RunOptions& run, const KernelOptions& kernel);

// hwsim sweep (app/sweep/, docs/sweeps.md): one workload over many values of config keys and
// workload fields, points in a process pool (and over MPI ranks), one row per point.
struct SweepCommandOptions {
  std::string file;                    // --sweep-file FILE.toml ("" = none)
  std::string chip, system, workload;
  std::vector<std::string> overrides;  // --set KEY=VALUE for every point
  std::vector<std::string> vary;       // --vary KEY=V1,V2,... (repeatable)
  bool zip = false, resume = false;
  int jobs = 0;                        // 0 = every core
  std::string out = "-";               // FILE.csv, FILE.jsonl, - (CSV on stdout)
  std::string svg_path;                // --svg FILE: a metric against a varied key ("" = none)
  std::string plot_x, plot_y;          // --plot-x KEY, --plot-y METRIC (defaults: sweep_plot.h)
};
int sweep_command(const SweepCommandOptions& options);

// what: params | chips | systems | workloads | models
// `kind` (params only): list just the keys a chip of that device kind takes; empty: every key,
// with the kinds it belongs to.
// `chip`: with params, the values that chip's file (and its extends chain) gives every key.
int list_command(const std::string& what, const std::string& kind = "", const std::string& chip = "");

}  // namespace hwsim
