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
};
int run_command(const RunOptions& options);

struct ValidateOptions {
  std::string file;
  std::string chip;
  std::string system;                  // --system: validate records of several devices (collectives)
  std::vector<std::string> overrides;
  std::string csv_path;
  std::string kind;
  double max_mape = 0;  // > 0: exit 6 when a kind's MAPE exceeds it
};
int validate_command(const ValidateOptions& options);

// A kernel program on the warp model (sim/cli/kernel_command.cpp): --kernel FILE.hwk.
struct KernelOptions {
  std::string kernel;                  // .hwk file
  long long grid = 1, block = 32;
  std::vector<std::string> args;       // --arg NAME=SPEC
  std::vector<std::string> dumps;      // --dump BUFFER or BUFFER=FILE
  long long max_cycles = 0;            // 0 = no limit
  std::string trace_path;              // --trace FILE: Chrome trace, one track per warp
  int sample_sms = 0;                  // --sample-sms N: simulate N SMs and their share of the grid
};
int kernel_command(const RunOptions& run, const KernelOptions& kernel);

// what: params | chips | systems | workloads | models
// `kind` (params only): list just the keys a chip of that device kind takes; empty: every key,
// with the kinds it belongs to.
int list_command(const std::string& what, const std::string& kind = "");

}  // namespace hwsim
