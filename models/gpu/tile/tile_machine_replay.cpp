// TileMachine::run_kernel: a kernel replayed from a recorded run of the same renamed kernel on the
// same renamed caches (kernel_replay.h), or simulated and recorded.
#include "models/gpu/tile/tile_machine.h"

namespace hwsim {

namespace {
bool replaying = true;            // TileMachine::replay_kernels
TileMachine::ReplayCounts counts;  // TileMachine::process_replay_counts
}  // namespace

void TileMachine::replay_kernels(bool on) { replaying = on; }

TileMachine::ReplayCounts TileMachine::process_replay_counts() { return counts; }

WorkRecord TileMachine::run_kernel(const PackedKernel& packed, double step_start, bool last_of_step) {
  return run_kernel(KernelSummary::of(packed), [&]() -> const PackedKernel& { return packed; }, step_start,
                    last_of_step);
}

WorkRecord TileMachine::run_kernel(const KernelSummary& summary, const std::function<const PackedKernel&()>& lowered,
                                   double step_start, bool last_of_step) {
  WorkRecord record = kernel_record(summary, step_start);
  // A kernel's run depends on nothing else only when it starts on an idle machine (the last
  // kernel's flows all done): always, as kernels run one after another; checked all the same.
  if (!replaying || flows_.network().active_flows() > 0) {
    ++counts.simulated;
    return simulate_kernel(lowered(), std::move(record), step_start, last_of_step);
  }
  const KernelNames& names = *summary.names;
  const RenamedState before = rename_state(caches_.state(), names);
  const KernelReplays::Key key{names.shape, before.digest, last_of_step};
  if (replay_kernel(key, names, before, record, step_start)) return record;

  ++counts.simulated;
  const PackedKernel& packed = lowered();
  auto outcome = std::make_shared<KernelOutcome>();
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  clock_->record(&outcome->governor, GpuClockDomain::Level::kernel);
  try {
    record = simulate_kernel(packed, std::move(record), step_start, last_of_step);
  } catch (...) {
    clock_->record(nullptr, GpuClockDomain::Level::kernel);
    throw;
  }
  clock_->stop_recording(GpuClockDomain::Level::kernel);
  outcome->duration = sc_core::sc_time_stamp() - start;
  outcome->traffic = record.traffic, outcome->breakdown = record.breakdown;
  outcome->energy = record.energy, outcome->energy_parts = record.energy_parts;
  outcome->clock = record.clock, outcome->throttled = record.throttled, outcome->over_limit = record.over_limit;
  // The caches after it hold the kernel's objects and those held before, renamed alike.
  if (rename_like(caches_.state(), names, before, outcome->after)) replays_.store(key, std::move(outcome));
  return record;
}

bool TileMachine::replay_kernel(const KernelReplays::Key& key, const KernelNames& names, const RenamedState& before,
                                WorkRecord& record, double step_start) {
  auto* outcomes = replays_.find(key);
  if (!outcomes) return false;
  for (std::size_t i = 0; i < outcomes->size(); ++i) {
    if (!clock_->replay((*outcomes)[i]->governor)) continue;
    std::shared_ptr<const KernelOutcome> o = (*outcomes)[i];
    replays_.used(key, i);
    ++counts.replayed;
    wait(o->duration);
    caches_.set_state(restore_names(o->after, names, before.others));
    clock_->replayed(o->governor);
    record.end = sim_now() - step_start;
    record.traffic = o->traffic, record.breakdown = o->breakdown;
    record.energy = o->energy, record.energy_parts = o->energy_parts;
    record.clock = o->clock, record.throttled = o->throttled, record.over_limit = o->over_limit;
    return true;
  }
  return false;
}

}  // namespace hwsim
