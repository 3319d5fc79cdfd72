#pragma once
// Times the hwsim command line as a user runs it: a fresh process per run (start-up, configuration
// and workload parsing included), its wall time, CPU time (user + system) and peak RSS from
// wait4(). The machine may be shared: each figure is the minimum over `repeat` runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hwsim::bench {

struct CliTiming {
  double wall_seconds = 0, cpu_seconds = 0, peak_rss_mib = 0;
  bool ok = true;
};

// Runs `HWSIM_BINARY args` (shell words) with stdout and stderr discarded.
inline CliTiming time_cli_once(const std::string& args) {
  std::string command = fmt::format("exec '{}' {} >/dev/null 2>&1", HWSIM_BINARY, args);
  auto begin = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  struct rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  CliTiming t;
  t.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  t.cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  t.peak_rss_mib = double(usage.ru_maxrss) / 1024.0;
  t.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return t;
}

// The minimum of each figure over `repeat` runs (a failed run is reported as such).
inline CliTiming time_cli(const std::string& args, int repeat) {
  CliTiming best = time_cli_once(args);
  for (int i = 1; i < repeat && best.ok; ++i) {
    CliTiming t = time_cli_once(args);
    best.ok = best.ok && t.ok;
    best.wall_seconds = std::min(best.wall_seconds, t.wall_seconds);
    best.cpu_seconds = std::min(best.cpu_seconds, t.cpu_seconds);
    best.peak_rss_mib = std::min(best.peak_rss_mib, t.peak_rss_mib);
  }
  return best;
}

// The number after `--repeat` (default 1) in a benchmark's arguments.
inline int repeat_option(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--repeat") return std::max(1, std::atoi(argv[i + 1]));
  return 1;
}

}  // namespace hwsim::bench
