#pragma once
// The systolic chip as SystemC modules: run_op(), called from the runner's SystemC thread, runs
// one fused op's phases one after another. In a phase every TensorCore runs its double-buffered
// pipeline of identical steps (op_plan.h) as four events:
//   prologue  the HBM latency, then the first step's load (nothing to overlap it with);
//   body      steps 1..n−1 compute while steps 2..n load and steps 1..n−1 store: one flow of
//             those bytes on the shared HBM resource, capped at the pace the compute consumes
//             them (so it lasts max((n−1)·step time, bytes at its fair share of HBM));
//   last      step n computes;
//   epilogue  its results store.
// The identical steps between prologue and epilogue are aggregated into one rate-capped flow
// (exact for a steady pipeline, and the event count stays 4 per TensorCore and phase whatever
// the size of the op). TensorCores share HBM through the FlowHost (max-min fair); nothing ticks.
#include <optional>
#include <vector>

#include "models/systolic/op_plan.h"
#include "models/systolic/systolic_chip.h"
#include "sim/engine/flow_host.h"
#include "sim/engine/timer_queue.h"
#include "sim/result.h"

namespace hwsim {

// What one phase cost each TensorCore, for the record's breakdown (seconds).
struct CoreTime {
  double compute = 0, overhead = 0, memory = 0, idle = 0, vector_bound = 0;
};

class SystolicMachine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SystolicMachine);
  SystolicMachine(sc_core::sc_module_name name, const SystolicChip& chip);

  // Runs one op now (call from an SC_THREAD: it waits); times relative to `step_start`.
  WorkRecord run_op(const OpPlan& plan, double step_start);

 private:
  struct CoreFlight;
  std::vector<CoreTime> run_phase(const Phase& phase);   // waits until every core is done
  CoreTime core_time(const PipelineStep& s, const CoreFlight& f, double phase_end, int running_cores) const;
  void start_core(CoreFlight& f);
  void after_prologue(CoreFlight& f);
  void last_step(CoreFlight& f);
  void epilogue(CoreFlight& f);
  void finish(CoreFlight& f);

  const SystolicChip chip_;
  TimerQueue timers_;
  FlowHost flows_;
  ResourceId hbm_;
  // Per-operand DRAM channels (SystolicChip::ifmap_bandwidth, ...), where set.
  std::optional<ResourceId> ifmap_, filter_, ofmap_;
  // The resources a flow of these bytes crosses, each at its share of the flow.
  FlowDemands demands(double ifmap_bytes, double filter_bytes, double ofmap_bytes) const;
  int running_ = 0;                 // cores still in the current phase
  sc_core::sc_event phase_done_;
};

}  // namespace hwsim
