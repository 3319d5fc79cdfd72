#pragma once
// The simulation layer's entry point: a validated chip Config (and, on a system, the system's), a
// built Workload and what the caller wants streamed in; a RunResult with every metric derived once
// out. The runner is chosen by the workload (run/runner.h): serving for requests over time, the
// system runner on a system of chips, the single-device runner otherwise. Knows no kind of
// hardware, no command line and no printer.
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// What a run hands out while it runs, and what it keeps. Each step goes to every sink as soon as
// it has run (the JSON and trace writers). A run of one step keeps its records in RunResult::steps;
// a run of several (a long generate) keeps only each step's label, time and record count, unless
// `keep_records` (the HTML and SVG pictures draw records) or the device's own figures need them
// (a microcontroller's inference metrics). A serving run's distinct passes keep their records only
// with `keep_records` (they come at its end: the caller that writes them asks for them). `progress`, when set, is told after each step (steps
// done, steps in the workload).
struct RunStreams {
  std::vector<StepSink*> sinks;
  bool keep_records = false;
  std::function<void(std::size_t done, std::size_t total)> progress;
};

struct RunRequest {
  const Config& chip;
  const Config* system = nullptr;  // a system of chips (kind = "system"), whose chip `chip` is
  const Workload& workload;
  RunStreams streams = {};
};

// Runs one SystemC elaboration: call at most once per process (see sim/engine/isolated_run.h).
RunResult simulate(const RunRequest& request);

// The same on one chip, and on a system of chips.
RunResult simulate(const Config& chip, const Workload& workload, const RunStreams& streams = {});
RunResult simulate_system(const Config& system, const Config& chip, const Workload& workload,
                          const RunStreams& streams = {});

}  // namespace hwsim
