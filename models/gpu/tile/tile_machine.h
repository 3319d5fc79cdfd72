#pragma once
// The tile-level GPU as SystemC modules: run_kernels(), called from the runner's SystemC thread,
// launches kernels one after another; a CTA dispatcher places CTAs on free SM slots; each CTA fills its pipeline, streams its
// operands through L2/HBM (a flow on the shared FlowHost, at the pace of its SM's math or of
// memory, whichever is slower), writes its results, and frees its slot. Nothing ticks: every
// step waits for a timer or a flow completion.
#include <memory>
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "models/gpu/tile/partitioned_l2.h"
#include "sim/engine/flow_host.h"
#include "sim/engine/timer_queue.h"
#include "sim/result.h"

namespace hwsim {

class TileMachine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TileMachine);
  TileMachine(sc_core::sc_module_name name, const GpuChip& chip);

  // Runs `kernels` one after another now (call from an SC_THREAD: it waits); one record per
  // kernel, in launch order, times from the call. L2 contents carry over between calls.
  std::vector<WorkRecord> run_kernels(const std::vector<Kernel>& kernels);

  // What its records hold: traffic at l2 and hbm; details ctas (summed over a run), ctas_per_sm,
  // sms_used and waves = CTAs ÷ (SMs × CTAs per SM) (per kernel only).
  static std::shared_ptr<const RecordSchema> schema();
  // The schema of this chip's records: levels l2, [mall,] hbm; the details in its vocabulary
  // (AMD: workgroups, workgroups_per_cu, cus_used, dispatch_rounds). schema() for NVIDIA's.
  static std::shared_ptr<const RecordSchema> schema(const GpuChip& chip);

 private:
  struct SmState {
    ResourceId resource;  // the SM's share of time in the flow network
    int active = 0;       // resident CTAs
    double busy_since = 0;
    double busy_total = 0;
  };
  struct KernelRun;
  struct CtaFlight;  // one CTA between dispatch and retirement
  struct CtaRoute {  // one CTA's memory levels (route_cta)
    double read_bytes = 0, write_bytes = 0;
    FlowDemands main, epilogue;  // per byte read / per byte written (+ scratch), SM not included
    double latency = 0;          // of its first data
  };

  WorkRecord run_kernel(const Kernel& kernel, double step_start, bool last_of_step);
  void account(const Kernel& kernel, KernelRun& run, double duration, double busy);
  void dispatch(KernelRun& run);                  // fill free slots
  void dispatch_partitioned(KernelRun& run);      // CTA i on partition i mod P, each filling its SMs
  void release_partitions();                      // L2 dirty data written back (waits): each kernel end on
                                                  // a partitioned chip, each step end on every chip
  CtaRoute route_cta(const Kernel& kernel, const CtaWork& cta, int sm);
  void start_cta(KernelRun& run, std::size_t cta, int sm);
  void finish_cta(CtaFlight& flight);
  void sm_enter(int sm);
  void sm_leave(int sm);

  const GpuChip chip_;
  TimerQueue timers_;
  FlowHost flows_;
  PartitionedCaches caches_;
  std::vector<ResourceId> l2_resources_;  // one per partition (each bandwidth / partitions)
  ResourceId hbm_resource_, mall_resource_ = 0;
  std::shared_ptr<const RecordSchema> schema_;
  std::vector<SmState> sms_;
  sc_core::sc_event kernel_done_, release_done_;
};

}  // namespace hwsim
