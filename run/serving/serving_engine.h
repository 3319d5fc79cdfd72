#pragma once
// One serving instance as a SystemC module (docs/serving.md): its scheduler, its representative
// device (an instance of tp devices runs identical sharded work on each, so one device stands for
// them, as in app/system_runner) and the loop that runs the steps the scheduler plans — swaps over
// the host link first, then each pass of the step lowered by the LLM step builder for exactly that
// composition and run on the device (tp > 1: with its collectives on the system's links), or, for a
// shape that ran before after the same shape, its time taken from that run (app/serving_step_cache).
// Knows no kind of hardware.
#include <memory>
#include <string>
#include <vector>

#include "run/serving/serving_op_memo.h"
#include "run/serving/serving_pass.h"
#include "run/serving/serving_scheduler.h"
#include "run/step_executor.h"
#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "sim/config/config.h"
#include "ops/device.h"
#include "ops/step_replay.h"
#include "sim/engine/systemc.h"

namespace hwsim {

class ServingEngine;

// What the instances of one run share, and where they report.
struct ServingShared {
  const ServeSpec& spec;
  std::vector<ServeSeq>& seqs;
  ServingLog& log;
  StepCache& cache;
  OpMemo& ops;                         // reuse=ops: the ops' times (an approximation)
  std::string framework;               // empty: the device's default
  // The host link each device swaps over: bytes/s reached (bandwidth × efficiency; 0: none described)
  // and the cost of each copy beyond its bytes.
  double host_link_bandwidth = 0, host_copy_overhead = 0;
  Fabric* fabric = nullptr;            // a system's links; null on one chip
  const SystemSpec* system = nullptr;
  bool record_distinct = true;         // log each distinct shape (not for a baseline run)
  bool keep_records = true;            // with its records (ServingSetup::keep_records)
  // Called after each step with what it did; and whether every request has finished.
  std::function<void(ServingEngine&, const StepOutcome&)> stepped;
  std::function<bool()> all_finished;
};

class ServingEngine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ServingEngine);
  // Builds the instance's device from `chip` (a child of this module) and sizes its KV pool.
  ServingEngine(sc_core::sc_module_name name, const Config& chip, ServingShared& shared, InstanceRole role,
                int index, std::vector<std::int64_t> devices);

  ServingScheduler& scheduler() { return *scheduler_; }
  const ServingScheduler& scheduler() const { return *scheduler_; }
  const DeviceInfo& device_info() const { return device_->info(); }
  InstanceRole role() const { return role_; }
  int index() const { return index_; }
  const std::vector<std::int64_t>& devices() const { return devices_; }
  // Work may have arrived (a request, a transferred KV cache, freed blocks): an idle loop looks again.
  void wake() { wake_.notify(sc_core::SC_ZERO_TIME); }
  // Steps of a tp instance always run (their collectives could meet other traffic on the links).
  void disable_reuse() {
    reuse_ = false;
    if (replay_) replay_->record_step_effects(false);
  }

 private:
  void run();  // SC_THREAD
  void loop();
  ServingStep run_step(const StepPlan& plan);
  double run_pass(const StepPass& pass);
  double run_composed(const StepPass& pass);
  std::shared_ptr<const RunTotals> take_reused(const ShapeKey& previous, const ShapeKey& key);
  double log_pass(double start, std::shared_ptr<const RunTotals> totals);
  RunTotals sum_records(const std::vector<WorkRecord>& records) const;
  OpGraph lower(const StepPass& pass) const;
  std::vector<WorkRecord> execute(const StepProgram& program);
  void keep_records(const StepPass& pass, const ShapeKey& key, std::vector<WorkRecord> records, double seconds);

  ServingShared& shared_;
  std::unique_ptr<Device> device_;
  StepReplay* replay_ = nullptr;  // the device's replay capability, when it has one and reuse is exact
  std::unique_ptr<ServingScheduler> scheduler_;
  InstanceRole role_;
  int index_;
  std::vector<std::int64_t> devices_;
  std::string framework_;
  bool reuse_ = true;
  // The engine's host time per step and per scheduled sequence (chip keys serving.step_overhead*).
  double step_overhead_ = 0, step_overhead_per_sequence_ = 0;
  ShapeKey previous_;  // the device's last pass
  sc_core::sc_event wake_;
};

}  // namespace hwsim
