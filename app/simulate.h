#pragma once
// One run: a validated Config and a built Workload in, a finalized RunResult out. The generic
// runner: builds the device the chip's `kind` names (registry), checks the workload's footprint
// against the device's main memory, chooses the framework pass (the workload's, else the device's
// default), runs every step in one SystemC elaboration, and derives every metric once (finalize,
// then the language-model metrics). Knows no kind of hardware.
#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// Throws UserError(workload) when `workload`, run on one device, does not fit its main memory (a
// language model's footprint with advice; a training job's; any other workload, each op's
// tensors). Also used by the system runner for single-device layouts.
struct DeviceInfo;
void check_capacity(const DeviceInfo& device, const Workload& workload);
// Copies what the device says about its records (level, kind, unit, memory levels, TDP) into a result.
void describe_device(RunResult& result, const DeviceInfo& device);

// What a run hands out while it runs, and what it keeps. Each step goes to every sink as soon as
// it has run (the JSON and trace writers). A run of one step keeps its records in RunResult::steps;
// a run of several (a long generate) keeps only each step's label, time and record count, unless
// `keep_records` (the HTML and SVG pictures draw records) or the device's own figures need them
// (a microcontroller's inference metrics).
struct RunStreams {
  std::vector<StepSink*> sinks;
  bool keep_records = false;
};

// Runs one SystemC elaboration: call at most once per process (see sim/engine/isolated_run.h).
RunResult simulate(const Config& config, const Workload& workload, const RunStreams& streams = {});

}  // namespace hwsim
