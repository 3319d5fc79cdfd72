#include "run/serving/serving_engine.h"

#include <fmt/format.h>

#include "run/program.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

// The engine's host side (docs/serving.md, "Engine step overhead"; docs/calibration.md, "Serving
// engine steps on the H200"): each step's scheduling, input preparation, graph launch, the wait for
// the sampled tokens and the bookkeeping after them, during which the device is idle. Fitted on
// the H200 serving loop's Poisson, burst and long-prompt runs (data/measurements/h200_serving*.jsonl):
// host time = 257 us + 2.3 us per scheduled sequence.
const ParamRegistration serving_engine_params({
    quantity_param("serving.step_overhead", Dimension::time,
                   "host time of each serving engine step beyond its device passes (scheduling, input preparation, "
                   "launch, the sampled tokens' sync, bookkeeping): the device idles")
        .defaults_to("257 us")
        .zero_allowed(),
    quantity_param("serving.step_overhead_per_sequence", Dimension::time,
                   "host time per sequence scheduled in a serving engine step, added to serving.step_overhead")
        .defaults_to("2.3 us")
        .zero_allowed(),
});

// The sequences the host prepares for a step (a static batch's finished slots too).
double plan_sequences(const StepPlan& p) { return double(p.decodes.size() + p.chunks.size()) + double(p.padding); }

}  // namespace

ServingEngine::ServingEngine(sc_core::sc_module_name name, const Config& chip, ServingShared& shared,
                             InstanceRole role, int index, std::vector<std::int64_t> devices)
    : sc_core::sc_module(name), shared_(shared), role_(role), index_(index), devices_(std::move(devices)) {
  device_ = make_device(chip);
  const DeviceInfo& info = device_->info();
  KvPool pool = size_kv_pool(shared.spec, std::int64_t(devices_.size()), info.main_memory().bytes, info.name);
  scheduler_ = std::make_unique<ServingScheduler>(shared.spec, pool, role, index, shared.seqs, shared.log);
  framework_ = framework_for(shared.framework, info);
  step_overhead_ = chip.number("serving.step_overhead");
  step_overhead_per_sequence_ = chip.number("serving.step_overhead_per_sequence");
  reuse_ = shared.spec.reuse;
  if (reuse_ && !shared.spec.reuse_ops && (replay_ = step_replay(*device_))) replay_->record_step_effects(true);
  SC_THREAD(run);
}

void ServingEngine::run() {
  try {
    loop();
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

void ServingEngine::loop() {
  while (!shared_.all_finished()) {
    sc_core::wait(sc_core::SC_ZERO_TIME);  // requests arriving at this instant are seen first
    double now = sim_now();
    StepPlan plan = scheduler_->schedule(now);
    if (plan.empty()) {
      if (!shared_.all_finished()) sc_core::wait(wake_);
      continue;
    }
    ServingStep st = run_step(plan);
    st.start = now;
    st.waiting = scheduler_->waiting();
    st.kv_blocks_used = scheduler_->used_blocks();
    StepOutcome out = scheduler_->finish(plan, sim_now());
    st.verified = out.verified, st.accepted = out.accepted;
    shared_.log.steps.push_back(st);
    shared_.stepped(*this, out);
  }
}

// The host's share first (serving.step_overhead: the scheduler and input preparation run before
// the device starts; the sampled tokens' sync and bookkeeping after it, summed here), then swaps
// (out then in, each device over its own host link, before the passes, as vLLM's cache engine
// copies blocks before the forward), then the passes.
ServingStep ServingEngine::run_step(const StepPlan& plan) {
  ServingStep st;
  st.instance = index_;
  double start = sim_now();
  double host = step_overhead_ + step_overhead_per_sequence_ * plan_sequences(plan);
  if (host > 0) sc_core::wait(to_sc_time(host));
  const double swap_start = sim_now();
  std::int64_t swapped = plan.swap_out_blocks + plan.swap_in_blocks;
  if (swapped > 0) {
    const KvPool& pool = scheduler_->pool();
    double copies = double(swapped * pool.copies_per_block);
    sc_core::wait(to_sc_time(copies * shared_.host_copy_overhead + pool.block_bytes(swapped) / shared_.host_link_bandwidth));
    st.swap_seconds = sim_now() - swap_start;
  }
  std::int64_t simulated = shared_.log.simulated;
  for (const StepPass& pass : step_passes(plan, shared_.seqs, shared_.spec)) {
    double seconds = run_pass(pass);
    if (pass.draft) st.draft_seconds += seconds;
    if (pass.draft) continue;
    st.decodes = pass.decodes;
    st.prefill_tokens = pass.prefill_tokens;
  }
  st.reused = shared_.log.simulated == simulated;
  st.sequences = st.decodes + std::int64_t(plan.chunks.size());
  st.seconds = sim_now() - start;
  return st;
}

// Runs the pass on the device, or takes its time from the same shape after the same shape. The key
// holds the instance's tp: another graph, another time.
double ServingEngine::run_pass(const StepPass& pass) {
  if (shared_.spec.reuse_ops) return run_composed(pass);
  ShapeKey key = pass.key;
  key.push_back(std::int64_t(devices_.size()));
  ShapeKey previous = std::exchange(previous_, key);
  double start = sim_now();
  if (reuse_) {
    if (auto totals = take_reused(previous, key)) return log_pass(start, std::move(totals));
  }
  TransientOps transient;  // the pass's graphs are gone when it returns
  OpGraph graph = lower(pass);
  std::vector<WorkRecord> records = execute(make_program(graph, framework_).step);
  double seconds = sim_now() - start;
  shared_.log.simulated += 1;
  auto totals = std::make_shared<const RunTotals>(sum_records(records));
  if (reuse_)  // a time other traffic may have shaped is not kept
    shared_.cache.store(previous, key, {seconds, replay_ ? replay_->last_step_effect() : nullptr, totals});
  keep_records(pass, key, std::move(records), seconds);
  return log_pass(start, std::move(totals));
}

// The pass that began at `start` ended now, having added `totals` to the run.
double ServingEngine::log_pass(double start, std::shared_ptr<const RunTotals> totals) {
  shared_.log.passes.push_back({index_, start, sim_now(), std::move(totals)});
  return sim_now() - start;
}

RunTotals ServingEngine::sum_records(const std::vector<WorkRecord>& records) const {
  RunTotals t;
  for (WorkRecord r : records) {
    finalize_record(r, device_->info().fastest_level());
    t.add(r);
  }
  return t;
}

// A variant of the pair that applies to the device as it is now, its time taken (waited) and the
// device left as that step left it; its totals, or null (no time passed) when none applies.
std::shared_ptr<const RunTotals> ServingEngine::take_reused(const ShapeKey& previous, const ShapeKey& key) {
  // A copy: taking a variant waits its time, and meanwhile another instance sharing the table may
  // store variants of this pair (the list may move).
  const std::vector<StepCache::Variant> variants = shared_.cache.find(previous, key);
  for (const StepCache::Variant& v : variants) {
    if (v.effect && !(replay_ && replay_->replay_step(*v.effect, v.seconds))) continue;
    if (!v.effect) sc_core::wait(to_sc_time(v.seconds));
    shared_.cache.used(previous, key, v);
    return v.totals;
  }
  return nullptr;
}

// reuse=ops: the ops of shapes never seen run as one probe; the pass takes the sum of its ops' times.
double ServingEngine::run_composed(const StepPass& pass) {
  double start = sim_now();
  TransientOps transient;  // the pass's graphs are gone when it returns
  OpGraph graph = lower(pass);
  Program program = make_program(graph, framework_);
  const OpGraph& g = *program.step.graph;
  std::vector<OpVertex> order = std::move(program.step.order);
  std::vector<OpVertex> probe = shared_.ops.unknown(g, order);
  if (!probe.empty()) {
    program.step.order = probe;
    std::vector<WorkRecord> records = execute(program.step);
    shared_.log.simulated += 1;
    shared_.ops.learn(g, probe, records, device_->info().fastest_level());
    ShapeKey key = pass.key;
    key.push_back(std::int64_t(devices_.size()));
    keep_records(pass, key, std::move(records), sim_now() - start);
  }
  double seconds = shared_.ops.seconds(g, order), elapsed = sim_now() - start;
  if (seconds > elapsed) sc_core::wait(to_sc_time(seconds - elapsed));
  return log_pass(start, std::make_shared<const RunTotals>(shared_.ops.totals(g, order)));
}

void ServingEngine::keep_records(const StepPass& pass, const ShapeKey& key, std::vector<WorkRecord> records,
                                 double seconds) {
  if (!shared_.record_distinct || !shared_.cache.first_records(key)) return;
  StepResult r;
  r.label = pass.label() + (devices_.size() > 1 ? fmt::format(" tp={}", devices_.size()) : "") +
            (shared_.spec.reuse_ops ? " (ops probed)" : "");
  r.record_count = records.size();
  if (shared_.keep_records) r.records = std::move(records);
  r.seconds = seconds;
  shared_.log.distinct.push_back(std::move(r));
}

OpGraph ServingEngine::lower(const StepPass& pass) const {
  const ServeSpec& spec = shared_.spec;
  const ModelArchitecture& model = pass.draft ? spec.speculative.draft : spec.arch;
  Parallelism p;
  p.tp = std::int64_t(devices_.size());
  return p.tp > 1 ? lower_parallel_llm_step(model, spec.dtypes, pass.shape, p)
                  : lower_llm_step(model, spec.dtypes, pass.shape);
}

// The instance's tp ranks run the same sharded work: its one device stands for them, its
// collectives run among them on the system's links.
std::vector<WorkRecord> ServingEngine::execute(const StepProgram& program) {
  StepLinks links;
  if (devices_.size() > 1) {
    RankGroups ranks{devices_};
    links = {shared_.fabric, shared_.system, [ranks](const Op&) { return ranks; }};
  }
  return StepExecutor({device_.get()}, std::move(links)).run(program).records;
}

}  // namespace hwsim
