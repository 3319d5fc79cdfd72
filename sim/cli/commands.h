#pragma once
// The hwsim subcommands. Each returns the process exit code; user errors are thrown as UserError
// and turned into one line on stderr by main().
#include <string>
#include <vector>

namespace hwsim {

struct RunOptions {
  std::string chip;
  std::string workload;
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string json_path;               // --json FILE ("" = none)
  bool quiet = false;                  // no text report
};
int run_command(const RunOptions& options);

struct ValidateOptions {
  std::string file;
  std::string chip;
  std::vector<std::string> overrides;
  std::string csv_path;
  std::string kind;
  double max_mape = 0;  // > 0: exit 6 when a kind's MAPE exceeds it
};
int validate_command(const ValidateOptions& options);

// what: params | chips | workloads | models
int list_command(const std::string& what);

}  // namespace hwsim
