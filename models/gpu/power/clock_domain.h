#pragma once
// The SM clock domain of the tile-level GPU: it applies the governor's clock to the flow network
// (each SM's share of time, math and its L2 port, runs at clock / max clock of its max-clock
// capacity) and prices kernels' energy. L2, HBM and the memory-side cache keep their bandwidth: a
// power-capped H100 GEMM at 1364 MHz moves 5.4 TB/s of operand traffic through L2, more than the
// L2's 7 TB/s would give if it followed the SM clock (docs/calibration.md, "Power").
//
// The tile machine calls kernel_started() when a kernel's launch begins and kernel_finished()
// when it retires. In between, every power.dvfs.control_period, and at those two calls, the
// domain reads what the SMs, L2, the memory-side cache and HBM moved since the last update,
// prices it at the clock it ran at (gpu_energy), tells the governor, and applies the clock the
// governor sets. A kernel's energy is then priced from its exact FLOPs and bytes, each at the
// clocks it ran at.
#include <functional>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "models/gpu/power/dvfs_governor.h"
#include "models/gpu/power/gpu_energy.h"
#include "models/gpu/tile/packed_kernel.h"
#include "sim/engine/flow_host.h"

namespace hwsim {

// What the domain's resources are in the tile machine's flow network.
struct ClockDomainResources {
  std::vector<ResourceId> sms;  // each SM's share of time (capacity 1 at the max clock)
  // SM-seconds with resident CTAs (issuing or waiting on memory) since the start, summed over
  // SMs, up to now: what power.sm_active is paid on. Empty: the SM resources' busy time.
  std::function<double()> resident_sm_seconds;
  // The network's tallies of the SMs, the L2 partitions (read, not clocked), device memory and
  // the memory-side cache (-1: none), which read() takes in one pass.
  TallyId sm_tally = -1, l2_tally = -1, hbm_tally = -1, mall_tally = -1;
};

// A retired kernel's energy by component, its average clock and the time it ran throttled.
struct KernelPower {
  GpuEnergy energy;
  double clock = 0;      // Hz, time-weighted over the kernel
  double throttled = 0;  // seconds below the max clock
  // Joules the board drew above power.tdp in the kernel's control periods whose clock did not hold
  // it (the governor's lag: a period runs at the clock set from those before it — a sustained
  // start's first at the max clock, unobserved — and its estimate settles over its window).
  double over_limit = 0;
};

class GpuClockDomain : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(GpuClockDomain);
  GpuClockDomain(sc_core::sc_module_name name, const GpuChip& chip, FlowHost& flows, ClockDomainResources resources);

  double clock() const { return governor_.clock(); }

  // `kernel` starts its launch now.
  void kernel_started(const PackedKernel& kernel);
  // The kernel started last retired now: `busy_sm_seconds` summed over SMs with resident CTAs,
  // `l2_bytes`, `mall_bytes` and `hbm_bytes` moved, its FLOPs from the kernel.
  KernelPower kernel_finished(const Kernel& kernel, double busy_sm_seconds, double l2_bytes, double mall_bytes,
                              double hbm_bytes);

  // Exact reuse of a step's time (app/serving_step_cache.h). The step depends on the governor
  // only through the clocks it sets, so a step recorded as the spans the governor observed and
  // the clocks it set runs alike from any governor state that sets the same clocks on them.
  struct Observation {
    double seconds, core_joules, memory_joules;
    double clock;  // the clock the governor set after observing the span
  };
  // What the resources had moved (cumulative), or moved over a span.
  struct Counters {
    sc_core::sc_time time;  // spans are differences of whole femtoseconds: the same at any time
    double sm_work = 0, sm_busy = 0, l2 = 0, mall = 0, hbm = 0;
    // What moved from `o` to these (or, `o` a span, before it).
    Counters operator-(const Counters& o) const {
      return {time - o.time, sm_work - o.sm_work, sm_busy - o.sm_busy, l2 - o.l2, mall - o.mall, hbm - o.hbm};
    }
  };
  // What pricing a kernel needs besides its spans: kernel_started's and kernel_finished's inputs.
  struct KernelInputs {
    DType dtype = DType::fp32;
    bool constant_data = false;   // the kernel reads nothing: what it writes is one value
    double flops_per_work = 0;    // its FLOPs per SM-second of work at the max clock
    double flops = 0, busy_sm_seconds = 0, l2_bytes = 0, mall_bytes = 0, hbm_bytes = 0;  // its totals
  };
  struct Recording {
    double start_clock = 0;  // the clock the step began at
    std::vector<Observation> observed;
    Counters tail;           // from the last observation to the step's end (a release's write-backs)
    // Kernel level: what the resources moved over each observed span (observed[k]'s), all inside
    // the kernel, and its inputs: what replay_at_clocks prices again (repriceable: all were kept).
    std::vector<Counters> spans;
    KernelInputs kernel;
    bool repriceable = true;
  };
  // Recordings are kept at two levels at once: a step's (app/serving_step_cache.h) and a kernel's
  // (models/gpu/tile/kernel_replay.h), the kernel's inside the step's.
  enum class Level { step, kernel };
  // From now (between kernels) what the governor observes goes into `into` too. The span since the
  // last kernel is observed first, unrecorded at this level: it is not the step's (the kernel's).
  // stop_recording() at its end; record(nullptr) drops a recording (a step that failed).
  void record(Recording* into, Level level = Level::step);
  void stop_recording(Level level = Level::step);
  // Whether the governor, after observing the span since the last kernel, would set the clocks of
  // `r` from its state now; if so it takes the state observing that span and `r` leaves it in and
  // applies its clock (true; a step recording in progress takes r's observations), and replayed()
  // follows once r's time has passed; else nothing changes (false).
  bool replay(const Recording& r);
  // A kernel recorded in `r` whose flows no clocked resource limited (its SMs never saturated)
  // runs alike, bit for bit, at any clocks at least those it ran at. Whether the governor, after
  // observing the span since the last kernel, sets on r's spans clocks at least the recorded ones,
  // changing them where the recording did (so the flows are refilled at the same instants); if so
  // it takes the state those spans leave it in, as replay() does, and `power` is the kernel's
  // energy priced at those clocks, as kernel_finished would give it (true); else nothing changes
  // (false). replayed(r) follows once r's time has passed.
  bool replay_at_clocks(const Recording& r, KernelPower& power);
  // Between kernels: the span since the last update is observed now.
  void observe() { update(); }
  // The resources' counters (the network's tallies, the resident SM-seconds) restarted at zero
  // just now, after observe(): the next span counts from here (FlowHost::restart).
  void restart_counters();
  // The span `r` replayed has ended now: the next span counts from its last observation, with
  // what the resources moved after it.
  void replayed(const Recording& r);

 private:
  // Clock-weighted sums over the kernel in flight, for pricing it at its clocks.
  struct KernelSpan {
    double seconds = 0, clock_seconds = 0, throttled = 0, static_joules = 0, over_limit = 0;
    double busy = 0, busy_scaled = 0, work = 0, work_scaled = 0, l2 = 0, l2_scaled = 0;
  };

  void tick();    // SC_METHOD: an update inside a kernel
  void update();  // prices the span since the last update, tells the governor, applies its clock
  Counters read();
  void apply_clock(double clock);
  // Span `d`, run at g's clock with kernel `k` in flight (null: none), priced; folded into `span`
  // (the kernel's sums; null with no kernel) and observed by `g`. update() and replay_at_clocks()
  // price spans through this alone, so a repriced kernel has the bits of a simulated one.
  Observation price_span(DvfsGovernor& g, const Counters& d, const KernelInputs* k, KernelSpan* span) const;
  // A kernel's power from its inputs and sums, `last` the clock set after its last span.
  KernelPower price_kernel(const KernelInputs& k, const KernelSpan& span, double last) const;

  const GpuPowerParams params_;
  const double port_rate_;      // SM <-> L2 bytes/s at the max clock
  FlowHost& flows_;
  ClockDomainResources resources_;
  DvfsGovernor governor_;
  Counters last_;
  KernelSpan span_;
  Recording* recording_[2] = {nullptr, nullptr};  // by Level
  // What the resources did over span `d` (FLOPs with kernel `k` in flight).
  static GpuActivity activity_of(const Counters& d, const KernelInputs* k);
  // The span since the last update as update() would observe it (seconds 0: none), priced at the
  // clock now.
  Observation pending();
  const Kernel* kernel_ = nullptr;  // in flight (between kernel_started and kernel_finished)
  KernelInputs inflight_;           // the kernel in flight's (its totals at kernel_finished)
  std::vector<Observation> repriced_;  // replay_at_clocks' observations (storage reused)
  sc_core::sc_event tick_;
};

// SM-seconds of work at the max clock that `kernel`'s CTAs put on their SMs (math or the L2 port,
// whichever is slower, for the operands; the port for the results), as the tile machine
// schedules them: what FLOPs progress in proportion to.
double kernel_sm_work(const PackedKernel& kernel, double port_rate);
// A kernel that reads nothing and writes something (a fill): its data is one repeated value.
bool writes_constant_data(const PackedKernel& kernel);

}  // namespace hwsim
