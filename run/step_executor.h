#pragma once
// Runs one step's program on the devices of a run, inside the calling SystemC thread: the one way
// every runner (one chip, a system, a serving instance) runs a graph. Each pipeline stage walks
// its ops in execution order; an op starts once all its graph predecessors have finished, on any
// stage:
// - device ops run in segments (consecutive ops of the stage that wait on nothing outside it) on
//   the stage's representative device (Device::run_step): its tp/ep/dp ranks do the same sharded
//   work, so one device stands for them;
// - a collective runs on the links (models/cluster) in every rank group the run gives for it; the
//   stage waits for it, unless it is asynchronous (gradient buckets) or a pipeline send, which run
//   beside the stage's next ops; the step ends when every one has finished. Device work beside such
//   a collective runs on the compute units it leaves (collective.compute_share: NCCL's channels
//   each hold one SM).
// One stage runs in the calling process; several run one process each. Knows no kind of hardware.
#include <functional>
#include <vector>

#include "models/cluster/collective_plan.h"
#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "ops/device.h"
#include "sim/result.h"

namespace hwsim {

// The links a run's collectives cross, and the ranks each collective runs among.
struct StepLinks {
  Fabric* fabric = nullptr;               // null: the run has no links (a collective is a bug)
  const SystemSpec* system = nullptr;
  std::function<RankGroups(const Op&)> groups;
};

class StepExecutor {
 public:
  // stage_devices[s]: the representative device of pipeline stage s.
  explicit StepExecutor(std::vector<Device*> stage_devices, StepLinks links = {});

  // Runs the ops of `program`'s order now (an op outside it counts as done: a probe of some ops)
  // and returns its records in start order, times from the step's start, each
  // with its stage (WorkRecord::device); an asynchronous collective's `hidden` seconds are those
  // its stage's device worked meanwhile. StepResult::seconds is the step's time; no label.
  StepResult run(const StepProgram& program);

 private:
  struct State;
  void run_stage(State& st, int stage);
  void run_segment(State& st, int stage, const std::vector<OpVertex>& segment);
  void run_collective_op(State& st, OpVertex v, bool detached);
  // A segment that ran from `begin` to now beside detached collectives of its stage: slowed by the
  // compute units they hold (links' collective.compute_share).
  void share_with_collectives(State& st, int stage, double begin, std::vector<WorkRecord>& records);
  // A RecordedOp: its stage's device is busy for the recorded time (no device model runs it).
  void run_recorded_op(State& st, OpVertex v);
  void spawn_detached(State& st, int stage, OpVertex v);
  void settle_detached(State& st);
  // Waits until every graph predecessor of v has finished, but those of segment `segment_of`
  // (1 + its stage; 0: none), which run with v.
  void wait_for_inputs(State& st, OpVertex v, int segment_of);

  std::vector<Device*> devices_;
  StepLinks links_;
};

}  // namespace hwsim
