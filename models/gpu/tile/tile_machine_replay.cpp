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
  RenamedState before = renamed_before(names);
  const KernelReplays::Key key{names.shape, before.digest, last_of_step};
  if (replay_kernel(key, summary, before, record, step_start)) return record;

  ++counts.simulated;
  const PackedKernel& packed = lowered();
  auto outcome = std::make_shared<KernelOutcome>();
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const std::uint64_t saturations = flows_.network().watched_saturations();
  clock_->record(&outcome->governor, GpuClockDomain::Level::kernel);
  try {
    record = simulate_kernel(packed, std::move(record), step_start, last_of_step);
  } catch (...) {
    clock_->record(nullptr, GpuClockDomain::Level::kernel);
    throw;
  }
  clock_->stop_recording(GpuClockDomain::Level::kernel);
  outcome->clock_free = flows_.network().watched_saturations() == saturations && outcome->governor.repriceable;
  outcome->times = last_times_;
  outcome->duration = sc_core::sc_time_stamp() - start;
  outcome->traffic = record.traffic, outcome->breakdown = record.breakdown;
  outcome->energy = record.energy, outcome->energy_parts = record.energy_parts;
  outcome->clock = record.clock, outcome->throttled = record.throttled, outcome->over_limit = record.over_limit;
  // The caches after it hold the kernel's objects and those held before, renamed alike: they are
  // the chain's contents from here (caches_ holds them as well).
  if (rename_like(caches_.state(), names, before, outcome->after)) {
    chain_on(Chain{outcome, summary.names, std::move(before.others), true});
    replays_.store(key, std::move(outcome));
  }
  return record;
}

// Replayed, the kernel leaves caches_ as they are: its outcome's `after` with its names is the
// chain's contents from here.
bool TileMachine::replay_kernel(const KernelReplays::Key& key, const KernelSummary& summary, RenamedState& before,
                                WorkRecord& record, double step_start) {
  auto* outcomes = replays_.find(key);
  if (!outcomes) return false;
  for (std::size_t i = 0; i < outcomes->size(); ++i) {
    std::shared_ptr<const KernelOutcome> o = (*outcomes)[i];
    if (!governor_takes(*o, summary.kernel, record)) continue;
    replays_.used(key, i);
    ++counts.replayed;
    wait(o->duration);
    clock_->replayed(o->governor);
    record.end = sim_now() - step_start;
    record.traffic = o->traffic;
    chain_on(Chain{std::move(o), summary.names, std::move(before.others), false});
    return true;
  }
  return false;
}

bool TileMachine::governor_takes(const KernelOutcome& o, const Kernel& kernel, WorkRecord& record) {
  if (clock_->replay(o.governor)) {
    record.breakdown = o.breakdown;
    record.energy = o.energy, record.energy_parts = o.energy_parts;
    record.clock = o.clock, record.throttled = o.throttled, record.over_limit = o.over_limit;
    return true;
  }
  KernelPower power;
  if (!o.clock_free || !clock_->replay_at_clocks(o.governor, power)) return false;
  account(kernel, power, o.times, record);
  ++counts.repriced;
  return true;
}

// With a chain, the kernel's tensors are located in the chain's outcome (their codes there), and
// the outcome's link for those codes gives the digest and the others, whose names are put back.
RenamedState TileMachine::renamed_before(const KernelNames& names) {
  if (!chain_.outcome) return rename_state(caches_.state(), names);
  link_codes_.clear();
  for (std::int64_t t : names.tensors) link_codes_.push_back(code_of(t, *chain_.names, chain_.others));
  const ChainLink& link = chain_.outcome->link(link_codes_);
  RenamedState out;
  out.digest = link.digest;
  out.others.swap(spare_others_);
  out.others.clear();
  for (std::int64_t code : link.others) out.others.push_back(tensor_of_code(code, *chain_.names, chain_.others));
  return out;
}

void TileMachine::chain_on(Chain next) {
  spare_others_.swap(chain_.others);
  chain_ = std::move(next);
}

void TileMachine::materialize() {
  if (!chain_.outcome || chain_.materialized) return;
  caches_.set_state(restore_names(chain_.outcome->after, *chain_.names, chain_.others));
  chain_.materialized = true;
}

PartitionedCaches::State TileMachine::cache_state() const {
  if (chain_.outcome && !chain_.materialized) return restore_names(chain_.outcome->after, *chain_.names, chain_.others);
  return caches_.state();
}

void TileMachine::set_cache_state(const PartitionedCaches::State& s) {
  chain_ = Chain{};
  caches_.set_state(s);
}

}  // namespace hwsim
