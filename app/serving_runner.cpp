#include "app/serving_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "ops/tensor_ids.h"
#include "workloads/llm/step_lowering.h"
#include "workloads/passes/framework_pass.h"

namespace hwsim {

// A request in the engine. Its prefill covers `prefill_len` tokens (the prompt; after a
// preemption, the prompt and the tokens generated so far: vLLM's recompute); `computed` of them
// and every decoded token hold KV in `blocks` blocks.
struct ServingRunner::Seq {
  std::int64_t prefill_len = 0, computed = 0, generated = 0, blocks = 0;
  bool finished = false;
};

// A step's work: running sequences decoding one token, and prefill chunks (sequence, tokens).
struct ServingRunner::Scheduled {
  std::vector<std::size_t> decodes;
  std::vector<std::pair<std::size_t, std::int64_t>> chunks;
  std::int64_t padding = 0;     // static batching: finished sequences still in the batch
  std::int64_t padding_context = 0;
  bool empty() const { return decodes.empty() && chunks.empty(); }
};

ServingRunner::ServingRunner(sc_core::sc_module_name name, Device& device, const ServeSpec& spec, const KvPool& pool,
                             std::string framework)
    : sc_core::sc_module(name), device_(device), spec_(spec), pool_(pool), framework_(std::move(framework)) {
  SC_THREAD(run);
}

void ServingRunner::run() {
  try {
    loop();
  } catch (...) {
    fail_simulation(std::current_exception());
  }
}

namespace {
// Where the sequence's KV would reach after `tokens` more positions.
std::int64_t blocks_needed(const KvPool& pool, std::int64_t held, std::int64_t blocks) {
  return std::max<std::int64_t>(0, pool.blocks_for(held) - blocks);
}
}  // namespace

ServingRunner::Scheduled ServingRunner::schedule(std::vector<Seq>& seqs, double now) {
  const auto& reqs = spec_.requests;
  while (next_arrival_ < reqs.size() && reqs[next_arrival_].arrival <= now) waiting_.push_back(next_arrival_++);
  Scheduled b;
  std::int64_t budget = spec_.max_tokens_per_step;
  auto preempt_last = [&]() {
    std::size_t victim = running_.back();
    running_.pop_back();
    Seq& v = seqs[victim];
    free_blocks_ += v.blocks;
    v.blocks = 0, v.computed = 0, v.prefill_len = reqs[victim].prompt + v.generated;
    waiting_.insert(waiting_.begin(), victim);
    log_.preemptions += 1;
    log_.requests[victim].preemptions += 1;
  };
  bool preempted = false;
  // Static batching fills an empty engine up to max_batch at once, each request reserving its whole
  // prompt + output (never preempted); their prefills then run in chunks by the token budget.
  while (!spec_.continuous && !waiting_.empty() && std::int64_t(running_.size()) < spec_.max_batch &&
         (running_.empty() || log_.requests[running_.front()].first_scheduled == now)) {
    std::size_t id = waiting_.front();
    std::int64_t need = pool_.blocks_for(reqs[id].prompt + reqs[id].output);
    if (need > free_blocks_) break;
    free_blocks_ -= need, seqs[id].blocks = need;
    waiting_.erase(waiting_.begin());
    running_.push_back(id);
    log_.requests[id].first_scheduled = now;
  }
  // Running sequences first, in admission order; blocks short: the last admitted is preempted.
  for (std::size_t i = 0; i < running_.size() && budget > 0; ++i) {
    std::size_t id = running_[i];
    Seq& s = seqs[id];
    if (s.finished) {  // static batching: a finished slot still computes (padding), holds its blocks
      b.padding += 1, b.padding_context = std::max(b.padding_context, s.computed);
      budget -= 1;
      continue;
    }
    std::int64_t tokens = s.computed < s.prefill_len ? std::min(s.prefill_len - s.computed, budget) : 1;
    if (!spec_.chunked_prefill && s.computed < s.prefill_len && tokens < s.prefill_len - s.computed) break;
    std::int64_t need = blocks_needed(pool_, s.computed + tokens, s.blocks);
    while (need > free_blocks_ && running_.back() != id) preempt_last(), preempted = true;
    if (need > free_blocks_) {
      preempt_last(), preempted = true;
      break;
    }
    free_blocks_ -= need, s.blocks += need, budget -= tokens;
    if (s.computed < s.prefill_len) b.chunks.push_back({id, tokens});
    else b.decodes.push_back(id);
  }
  // New sequences (FCFS), when nothing was preempted: continuous refills any free slot.
  bool admit = !preempted && spec_.continuous;
  while (admit && !waiting_.empty() && std::int64_t(running_.size()) < spec_.max_batch && budget > 0) {
    std::size_t id = waiting_.front();
    Seq& s = seqs[id];
    std::int64_t tokens = std::min(s.prefill_len, budget);
    if (!spec_.chunked_prefill && tokens < s.prefill_len) break;
    std::int64_t need = blocks_needed(pool_, tokens, s.blocks);
    if (need > free_blocks_) break;
    free_blocks_ -= need, s.blocks += need, budget -= tokens;
    waiting_.erase(waiting_.begin());
    running_.push_back(id);
    if (log_.requests[id].first_scheduled < 0) log_.requests[id].first_scheduled = now;
    b.chunks.push_back({id, tokens});
  }
  (void)seqs;
  return b;
}

std::vector<ServingRunner::Seq> ServingRunner::start_log() {
  const auto& reqs = spec_.requests;
  std::vector<Seq> seqs(reqs.size());
  log_.requests.resize(reqs.size());
  log_.token_times.resize(reqs.size());
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    seqs[i].prefill_len = reqs[i].prompt;
    ServedRequest& r = log_.requests[i];
    r.id = reqs[i].id, r.prompt = reqs[i].prompt, r.output = reqs[i].output, r.arrival = reqs[i].arrival;
    r.first_scheduled = -1;
  }
  free_blocks_ = pool_.blocks;
  return seqs;
}

// The step's shape: the decodes as one attention group over their mean context (KV positions after
// the step) rounded up to context_bucket (docs/serving.md: the bound), then each prefill chunk its
// own causal group. Key: decodes and their bucketed context (padding included), then each chunk
// (tokens, KV after).
ServingRunner::StepShape ServingRunner::shape_of(const Scheduled& b, const std::vector<Seq>& seqs) const {
  StepShape out;
  std::int64_t n = std::int64_t(b.decodes.size()) + b.padding, sum = b.padding * (b.padding_context + 1);
  for (std::size_t id : b.decodes) sum += seqs[id].computed + 1;
  if (n > 0) {
    std::int64_t mean = (sum + n - 1) / n, q = spec_.context_bucket;
    out.context = std::min((mean + q - 1) / q * q, std::max<std::int64_t>(mean, spec_.arch.max_context));
  }
  out.decodes = n;
  out.key = {n, out.context};
  if (n > 0) out.shape.groups.push_back({n, 1, out.context});
  for (auto [id, tokens] : b.chunks) {
    out.shape.groups.push_back({1, tokens, seqs[id].computed + tokens});
    out.key.push_back(tokens), out.key.push_back(seqs[id].computed + tokens);
    out.prefill_tokens += tokens;
  }
  return out;
}

// Runs the step on the device, or takes its time from an identical earlier one. The device keeps
// what a step leaves in its caches for the next (step_runner.h), so a step's time depends on the
// step before: the reuse key is the shape and the previous step's shape.
double ServingRunner::run_or_reuse(const StepShape& s, bool& reused) {
  std::vector<std::int64_t> full = previous_key_;
  full.push_back(-1);
  full.insert(full.end(), s.key.begin(), s.key.end());
  previous_key_ = s.key;
  auto hit = seconds_by_shape_.find(full);
  reused = spec_.reuse && hit != seconds_by_shape_.end();
  if (reused) return hit->second;
  OpGraph graph = lower_llm_step(spec_.arch, spec_.dtypes, s.shape);
  std::optional<OpGraph> rewritten = FrameworkPasses::get(framework_).apply(graph);
  const OpGraph& g = rewritten ? *rewritten : graph;
  StepProgram program;
  program.graph = &g;
  program.order = execution_order(g);
  program.tensors = tensor_ids(g);
  double start = sim_now();
  std::vector<WorkRecord> records = device_.run_step(program);
  double seconds = sim_now() - start;
  log_.simulated += 1;
  if (hit == seconds_by_shape_.end()) seconds_by_shape_.emplace(full, seconds);
  if (labels_.insert(s.key).second) {  // each distinct shape's records once
    StepResult r;
    r.label = fmt::format("serve decode {}@{} prefill {}", s.decodes, s.context, s.prefill_tokens);
    r.records = std::move(records);
    r.seconds = seconds;
    log_.distinct.push_back(std::move(r));
  }
  return seconds;
}

// Outcomes at `now`, the step's end: a decode adds a token; a chunk that completes its prefill adds
// the first token. Finished sequences leave; a static batch only once all of them are done.
// Returns how many requests finished.
std::size_t ServingRunner::finish_step(const Scheduled& b, std::vector<Seq>& seqs, double now) {
  std::size_t finished = 0;
  auto produce = [&](std::size_t id) {
    Seq& s = seqs[id];
    s.generated += 1;
    log_.token_times[id].push_back(now);
    if (log_.token_times[id].size() == 1) log_.requests[id].first_token = now;
    if (s.generated == spec_.requests[id].output) {
      s.finished = true;
      log_.requests[id].finish = now;
      finished += 1;
    }
  };
  for (std::size_t id : b.decodes) seqs[id].computed += 1, produce(id);
  for (auto [id, tokens] : b.chunks) {
    seqs[id].computed += tokens;
    if (seqs[id].computed == seqs[id].prefill_len) produce(id);
  }
  bool all_done = std::all_of(running_.begin(), running_.end(), [&](std::size_t id) { return seqs[id].finished; });
  if (spec_.continuous || all_done) {
    std::vector<std::size_t> kept;
    for (std::size_t id : running_) {
      if (seqs[id].finished) free_blocks_ += seqs[id].blocks, seqs[id].blocks = 0;
      else kept.push_back(id);
    }
    running_ = std::move(kept);
  }
  return finished;
}

void ServingRunner::loop() {
  const auto& reqs = spec_.requests;
  std::vector<Seq> seqs = start_log();
  double now = 0;
  std::size_t finished = 0;
  while (finished < reqs.size()) {
    Scheduled b = schedule(seqs, now);
    if (b.empty() && b.padding == 0) {
      if (!waiting_.empty()) continue;  // everything was preempted: admit again
      if (next_arrival_ >= reqs.size())
        throw std::logic_error("serving runner: nothing to schedule with requests unfinished");
      now = std::max(now, reqs[next_arrival_].arrival);
      continue;
    }
    StepShape shape = shape_of(b, seqs);
    ServingStep st;
    st.start = now;
    st.seconds = run_or_reuse(shape, st.reused);
    now += st.seconds;
    st.decodes = shape.decodes;
    st.prefill_tokens = shape.prefill_tokens;
    st.sequences = shape.decodes + std::int64_t(b.chunks.size());
    st.waiting = std::int64_t(waiting_.size());
    st.kv_blocks_used = pool_.blocks - free_blocks_;
    log_.steps.push_back(st);
    finished += finish_step(b, seqs, now);
  }
}

}  // namespace hwsim
