#pragma once
// The tile-level GPU as SystemC modules: run_kernels(), called from the runner's SystemC thread,
// launches kernels one after another; a CTA dispatcher places CTAs on free SM slots; each CTA fills its pipeline, streams its
// operands through L2/HBM (a flow on the shared FlowHost, at the pace of its SM's math or of
// memory, whichever is slower), writes its results, and frees its slot. Nothing ticks: every
// step waits for a timer or a flow completion.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "models/gpu/power/clock_domain.h"
#include "models/gpu/tile/kernel_replay.h"
#include "models/gpu/tile/packed_kernel.h"
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
  // Runs one kernel now; its record's times are from `step_start` (a simulated time). The last
  // kernel of a step (`last_of_step`) also waits for the step's dirty L2 data to be written back.
  WorkRecord run_kernel(const PackedKernel& kernel, double step_start, bool last_of_step);
  // The same for the kernel `summary` stands for: `lowered` gives the kernel itself, asked only
  // when the kernel is not replayed (tile_machine_replay.cpp).
  WorkRecord run_kernel(const KernelSummary& summary, const std::function<const PackedKernel&()>& lowered,
                        double step_start, bool last_of_step);

  // What its records hold: traffic at l2 and hbm; details ctas (summed over a run), ctas_per_sm,
  // sms_used and waves = CTAs ÷ (SMs × CTAs per SM) (per kernel only).
  static std::shared_ptr<const RecordSchema> schema();
  // The schema of this chip's records: levels l2, [mall,] hbm; the details in its vocabulary
  // (AMD: workgroups, workgroups_per_cu, cus_used, dispatch_rounds). schema() for NVIDIA's.
  static std::shared_ptr<const RecordSchema> schema(const GpuChip& chip);

  // Whether alike CTAs placed at one instant run as one group (the default), whether or not they
  // were placed one after another; off, every CTA is a group of its own. The results are the same
  // bit for bit (tested): the flow network's sums do not depend on the order of its flows, and
  // CTAs that finish at one instant retire in grid order either way. The switch is for that test.
  // Process-wide; set it before a simulation starts.
  static void group_alike_ctas(bool on);

  // Whether a kernel whose renamed shape and caches match a recorded run, from a governor that
  // sets the recorded clocks, takes that run's outcome instead of being simulated (the default;
  // kernel_replay.h). Off, every kernel is simulated: every record is the same, bit for bit
  // (u426). Process-wide; set it before a simulation starts.
  static void replay_kernels(bool on);
  // Kernels of this process replayed (of which repriced: a clock-free outcome taken at higher
  // clocks, GpuClockDomain::replay_at_clocks), and simulated (one simulation per process).
  struct ReplayCounts {
    std::uint64_t replayed = 0, simulated = 0, repriced = 0;
  };
  static ReplayCounts process_replay_counts();

  // What a step carries into the next (StepReplay::replay_step): the caches' contents (those a
  // chain of replayed kernels left, tile_machine_replay.cpp), and the clock domain that records
  // and replays what its governor did.
  PartitionedCaches::State cache_state() const;
  void set_cache_state(const PartitionedCaches::State& s);
  GpuClockDomain& clock_domain() { return *clock_; }

 private:
  struct SmState {
    ResourceId resource;  // the SM's share of time in the flow network
    int active = 0;       // resident CTAs
    double busy_since = 0;
    double busy_total = 0;
  };
  struct KernelRun;
  // What a CTA's operands did in the caches as it was placed (traffic_of), with its own figures:
  // everything its plan depends on besides the kernel. Two CTAs of one kernel whose traffic has
  // the same bits get the same plan, bit for bit: it is computed once (start_cta).
  struct CtaTraffic {
    int partition = 0;
    double flops = 0, scratch_bytes = 0, read_bytes = 0, write_bytes = 0;
    LevelBytes reads, writes;
    bool same_bits(const CtaTraffic& o) const;
  };
  struct CtaRoute {  // one CTA's memory levels (route_cta)
    double read_bytes = 0, write_bytes = 0;
    FlowDemands main, epilogue;  // per byte read / per byte written (+ scratch), SM not included
    double latency = 0;          // of its first data
  };
  // What one CTA does once placed: its pipeline fill, then its operand flow (main), then its
  // result flow (epilogue), each crossing its SM at the given weight besides the shared levels.
  struct CtaPlan {
    double fill = 0;
    FlowSpec main, epilogue;  // SM not included
    double main_sm_weight = 0, epilogue_sm_weight = 0;
    std::uint64_t key = 0;  // a hash of the above (set_key): plans that differ mostly differ in it
    void set_key();
    bool operator==(const CtaPlan& o) const;
  };
  // CTAs of one kernel placed at one instant with equal plans: they run as one group of flows
  // (FlowNetwork::start_group), bit for bit as they would one by one.
  struct CtaGroup {
    KernelRun* run = nullptr;
    CtaPlan plan;
    std::size_t first = 0, size = 0;  // its members: member_sm_[first, first + size), in grid order
  };
  struct Placed {  // a CTA placed at this instant, not yet in a group
    std::uint32_t plan;  // its plan: placed_plans_[plan] (CTAs placed one after another with
                         // the same traffic share one, and their group)
    int sm;
    std::uint32_t cta;
  };
  // Book-keeping of the kernel in flight.
  struct KernelRun {
    const PackedKernel* packed = nullptr;
    const Kernel* kernel = nullptr;  // its figures
    WorkRecord record;
    std::size_t next_cta = 0;
    std::size_t finished = 0;
    double start = 0;
    double overhead_sm_seconds = 0;  // prologue + epilogue + per-CTA cost, summed over CTAs
    std::vector<int> free_slots;     // per SM
    std::vector<std::size_t> next_in_partition;  // partitioned chips: next CTA of each partition
    bool retire_armed = false;       // a retire() is due at this instant
    // The last CTA placed: its traffic, plan and overhead (start_cta).
    bool has_last = false;
    CtaTraffic last_traffic;
    CtaPlan last_plan;
    double last_overhead = 0;
  };
  struct Finishing {  // a CTA whose work is done at this instant, not yet retired
    std::uint32_t cta;
    int sm;
  };

  // The record's figures that follow from the kernel alone, its start from `step_start`.
  WorkRecord kernel_record(const KernelSummary& kernel, double step_start) const;
  // Runs the kernel, completing `record` (run_kernel without replay).
  WorkRecord simulate_kernel(const PackedKernel& kernel, WorkRecord record, double step_start, bool last_of_step);
  // Kernel replay (tile_machine_replay.cpp): a recorded outcome of `key` the governor accepts,
  // taken (waits) into `record`; false when none applies.
  bool replay_kernel(const KernelReplays::Key& key, const KernelSummary& summary, RenamedState& before,
                     WorkRecord& record, double step_start);
  // Whether recorded outcome `o` runs from the governor's state now: at the recorded clocks, or (o
  // clock-free) at least those, `record` then priced at the clocks the governor sets.
  bool governor_takes(const KernelOutcome& o, const Kernel& kernel, WorkRecord& record);
  // The caches' contents renamed for `names`: from the chain's link when there is a chain, else
  // from the caches themselves.
  RenamedState renamed_before(const KernelNames& names);
  void materialize();  // the chain's contents put into caches_ (before anything reads or changes them)
  void restart_frame();  // the kernel about to run counts times and sums from now
  // SM-seconds with resident CTAs since the frame started, summed over SMs, up to now.
  double resident_sm_seconds() const;
  // The record's energy, clock and time breakdown from the kernel's power and times.
  void account(const Kernel& kernel, const KernelPower& power, const KernelTimes& times, WorkRecord& record) const;
  void dispatch(KernelRun& run);                  // fill free slots
  void dispatch_partitioned(KernelRun& run);      // CTA i on partition i mod P, each filling its SMs
  void refill(KernelRun& run, int sm);            // the slot a CTA freed on `sm`, as dispatch would fill it
  void release_partitions();                      // L2 dirty data written back (waits): each kernel end on
                                                  // a partitioned chip, each step end on every chip
  // CTA planning (cta_planning.cpp): the caches' answer for a CTA's operands on `sm`, then its
  // memory levels and its plan from that alone (plus the kernel), with its overhead (SM-seconds).
  CtaTraffic traffic_of(const PackedKernel& kernel, const PackedKernel::Cta& cta, int sm);
  CtaRoute route_cta(const Kernel& kernel, const CtaTraffic& traffic) const;
  CtaPlan plan_cta(const Kernel& kernel, const CtaTraffic& traffic, double& overhead) const;
  void start_cta(KernelRun& run, std::size_t cta, int sm);
  void flush_group(KernelRun& run);               // the CTAs placed now form groups, which start their fill
  std::size_t group_for(const CtaPlan& plan);  // the group formed now with this plan, or a new one
  void start_main(CtaGroup& group);
  void main_done(CtaGroup& group, std::size_t begin, std::size_t end);
  void epilogue_done(CtaGroup& group, std::size_t begin, std::size_t end);
  void finish_ctas(CtaGroup& group, std::size_t begin, std::size_t end);
  void retire(KernelRun& run);  // the CTAs done at this instant leave, in grid order; their slots refill
  void sort_finishing();        // finishing_ into grid order
  void sm_enter(int sm);  // at instant_
  void sm_leave(int sm);

  const GpuChip chip_;
  sc_core::sc_time launch_time_;  // chip_.launch_overhead
  // The kernel in flight's CTA groups and their members (SMs, as indices and as resources), kept
  // between kernels so their storage is reused: groups_used_ of the pool are the kernel's; the
  // member arrays are reserved for all its CTAs, so the spans flows hold stay valid.
  std::deque<CtaGroup> group_pool_;
  std::size_t groups_used_ = 0;
  std::vector<int> member_sm_;
  std::vector<ResourceId> member_resource_;
  std::vector<std::uint32_t> member_cta_;  // each member's index in the grid
  std::vector<std::size_t> group_of_;      // scratch of flush_group: each placed CTA's group
  std::vector<std::size_t> group_index_;   // scratch of group_for: the instant's groups by plan key
  std::vector<Placed> placed_;             // the kernel's CTAs placed at this instant, not yet in a group
  std::vector<CtaPlan> placed_plans_;      // their plans
  std::vector<Finishing> finishing_;       // the kernel's CTAs done at this instant, not yet retired
  std::vector<Finishing> merged_;          // scratch of sort_finishing
  std::vector<std::size_t> run_ends_;      // scratch of sort_finishing: where each sorted run ends
  TimerQueue timers_;
  FlowHost flows_;
  PartitionedCaches caches_;
  std::vector<ResourceId> l2_resources_;  // one per partition (each bandwidth / partitions)
  ResourceId hbm_resource_, mall_resource_ = 0;
  TallyId l2_tally_ = -1, hbm_tally_ = -1, mall_tally_ = -1;  // the network's tallies of them
  std::shared_ptr<const RecordSchema> schema_;
  std::vector<SmState> sms_;
  double resident_closed_ = 0;  // SM-seconds of residency that ended this frame (resident_sm_seconds)
  double instant_ = 0;  // flows_.now() at the dispatch or retirement in progress
  KernelTimes last_times_;  // the last kernel simulated's
  std::unique_ptr<GpuClockDomain> clock_;  // SM clock under the power governor; kernels' energy
  KernelReplays replays_;                  // recorded kernel runs (replay_kernels)
  // Chain replay: the caches' contents are restore_names(outcome->after, *names, others), the state
  // the last kernel (replayed, or simulated and recorded) left, or no chain (outcome null). Kernels
  // replayed one after another take their renamed state from the outcome's links and leave caches_
  // as they are; `materialized` says whether caches_ hold those contents too. Every reader or
  // writer of caches_ calls materialize() first; every writer then drops the chain.
  struct Chain {
    std::shared_ptr<const KernelOutcome> outcome;
    std::shared_ptr<const KernelNames> names;
    std::vector<std::int64_t> others;
    bool materialized = false;
  };
  Chain chain_;
  void chain_on(Chain next);              // the chain from here (the last one's storage kept for reuse)
  std::vector<std::int64_t> link_codes_;  // scratch of renamed_before
  std::vector<std::int64_t> spare_others_;  // a dropped chain's others, reused by renamed_before
  sc_core::sc_event kernel_done_, release_done_;
};

}  // namespace hwsim
