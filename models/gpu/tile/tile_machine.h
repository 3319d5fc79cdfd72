#pragma once
// The tile-level GPU as SystemC modules: a kernel stream (SC_THREAD) launches kernels one after
// another; a CTA dispatcher places CTAs on free SM slots; each CTA fills its pipeline, streams its
// operands through L2/HBM (a flow on the shared FlowHost, at the pace of its SM's math or of
// memory, whichever is slower), writes its results, and frees its slot. Nothing ticks: every
// step waits for a timer or a flow completion.
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "models/memory/l2_residency.h"
#include "sim/engine/flow_host.h"
#include "sim/engine/timer_queue.h"
#include "sim/result.h"

namespace hwsim {

// The steps a machine runs, one after another on the same GPU (L2 contents carry over): their
// labels, and a function lowering step i to kernels, called just before step i runs so only one
// step's kernels are ever held.
struct StepSource {
  std::vector<std::string> labels;
  std::function<std::vector<Kernel>(std::size_t step)> lower;
};

class TileMachine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TileMachine);
  TileMachine(sc_core::sc_module_name name, const GpuChip& chip, StepSource steps);

  // After sc_start(): one StepResult per step, kernels in launch order, times from step start.
  const std::vector<StepResult>& results() const { return results_; }
  // After sc_start(): rethrows what stopped the run early (e.g. a UserError from lowering), so it
  // reaches the caller as itself rather than as a SystemC report.
  void rethrow_failure() const { if (failure_) std::rethrow_exception(failure_); }

 private:
  struct SmState {
    ResourceId resource;  // the SM's share of time in the flow network
    int active = 0;       // resident CTAs
    double busy_since = 0;
    double busy_total = 0;
  };
  struct KernelRun;
  struct CtaFlight;  // one CTA between dispatch and retirement

  void stream();                                  // SC_THREAD: steps, kernels one after another
  KernelRecord run_kernel(const Kernel& kernel, double step_start);
  void dispatch(KernelRun& run);                  // fill free slots
  void start_cta(KernelRun& run, std::size_t cta, int sm);
  void finish_cta(CtaFlight& flight);
  void sm_enter(int sm);
  void sm_leave(int sm);

  const GpuChip chip_;
  TimerQueue timers_;
  FlowHost flows_;
  L2Residency l2_;
  ResourceId l2_resource_, hbm_resource_;
  std::vector<SmState> sms_;
  StepSource steps_;
  std::exception_ptr failure_;
  std::vector<StepResult> results_;
  sc_core::sc_event kernel_done_;
};

}  // namespace hwsim
