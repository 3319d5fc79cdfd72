#pragma once
// What every workload benchmark measures: one workload on one chip, simulated in a fresh child
// process (SystemC elaborates once per process): wall time (spec parsing included), peak RSS of
// the child, records produced and simulated seconds.
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <sys/resource.h>

#include "ops/device.h"
#include "run/simulate.h"
#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "workloads/workload.h"

namespace hwsim::bench {

struct TimedRun {
  double wall_seconds = 0;
  double peak_rss_mib = 0;
  std::size_t records = 0;
  double simulated_seconds = 0;
};

inline TimedRun time_workload(const std::string& chip, const std::string& spec) {
  std::string text = run_isolated([&]() {
    Config config = load_chip(chip, {});
    auto begin = std::chrono::steady_clock::now();
    Workload workload = WorkloadCatalog::build(spec);
    RunResult result = simulate(config, workload);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    struct rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::size_t records = 0;
    for (const auto& s : result.steps) records += s.record_count;
    return fmt::format("{:.17g} {:.17g} {} {:.17g}", wall, usage.ru_maxrss / 1024.0, records, result.seconds);
  });
  TimedRun t;
  std::sscanf(text.c_str(), "%lf %lf %zu %lf", &t.wall_seconds, &t.peak_rss_mib, &t.records, &t.simulated_seconds);
  return t;
}

}  // namespace hwsim::bench
