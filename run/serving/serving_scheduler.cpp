#include "run/serving/serving_scheduler.h"

#include <algorithm>

#include "run/serving/serving_speculative.h"

namespace hwsim {

ServingScheduler::ServingScheduler(const ServeSpec& spec, const KvPool& pool, InstanceRole role, int instance,
                                   std::vector<ServeSeq>& seqs, ServingLog& log)
    : spec_(spec), pool_(pool), role_(role), instance_(instance), seqs_(seqs), log_(log) {
  if (spec.speculative.on()) decode_tokens_ = spec.speculative.k + 1, lookahead_ = spec.speculative.k;
  free_blocks_ = pool_.blocks;
  swap_free_ = spec.preemption == Preemption::swap ? spec.swap_space : 0;
  caching_ = spec.prefix_caching && spec.continuous;
}

void ServingScheduler::enqueue(std::size_t id, bool front) {
  if (!spec_.priority_scheduling) {
    if (front) waiting_.push_front(id);
    else waiting_.push_back(id);
    return;
  }
  // (priority, arrival, id): a preempted request returns to its place, as vLLM's priority queue
  // re-inserts it by (priority, arrival_time).
  auto rank = [&](std::size_t q) {
    const ServeRequest& r = spec_.requests[q];
    return std::tuple(r.priority, r.arrival, q);
  };
  waiting_.insert(std::upper_bound(waiting_.begin(), waiting_.end(), id,
                                   [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); }),
                  id);
}

void ServingScheduler::arrive(std::size_t id, double now) {
  enqueue(id, false);
  log_.enter(id, RequestPhase::Kind::queued, now, instance_);
}

void ServingScheduler::allocate(std::int64_t blocks) {
  std::int64_t fresh = std::min(blocks, free_blocks_);
  free_blocks_ -= fresh;
  cache_.evict(blocks - fresh);
  log_.prefix_evictions += blocks - fresh;
}

void ServingScheduler::free_blocks_of(std::size_t id, std::int64_t blocks) {
  free_blocks_ += blocks - cache_.held_by(id);
  cache_.release(id);
}

bool ServingScheduler::reserve_incoming(std::size_t id) {
  std::int64_t need = pool_.blocks_for(seqs_[id].computed);
  if (need > allocatable()) return false;
  allocate(need);
  seqs_[id].blocks = need;
  incoming_ += 1;
  return true;
}

void ServingScheduler::incoming_arrived(std::size_t id, double now) {
  incoming_ -= 1;
  enqueue(id, false);
  log_.enter(id, RequestPhase::Kind::queued, now, instance_);
}

void ServingScheduler::release(std::size_t id) {
  auto it = handed_.find(id);
  free_blocks_of(id, it->second);
  handed_.erase(it);
}

std::int64_t ServingScheduler::load() const {
  std::int64_t running = 0;
  for (std::size_t id : running_) running += seqs_[id].finished ? 0 : 1;
  return std::int64_t(waiting_.size() + swapped_.size()) + running + incoming_;
}

// Static batching fills an empty engine up to max_batch at once, each request reserving its whole
// prompt + output (never preempted); their prefills then run in chunks by the token budget.
void ServingScheduler::admit_static(double now) {
  while (!waiting_.empty() && std::int64_t(running_.size()) < spec_.max_batch &&
         (running_.empty() || log_.requests[running_.front()].first_scheduled == now)) {
    std::size_t id = waiting_.front();
    const ServedRequest& r = log_.requests[id];
    std::int64_t need = pool_.blocks_for(r.prompt + r.output + lookahead_);
    if (need > allocatable()) break;
    allocate(need), seqs_[id].blocks = need;
    waiting_.pop_front();
    running_.push_back(id);
    log_.requests[id].first_scheduled = now;
    log_.enter(id, RequestPhase::Kind::prefill, now, instance_);
  }
}

std::int64_t ServingScheduler::wanted(std::size_t id, std::int64_t budget) const {
  const ServeSeq& s = seqs_[id];
  if (s.computed >= s.prefill_len) return decode_tokens_ <= budget ? decode_tokens_ : 0;
  std::int64_t rest = s.prefill_len - s.computed, tokens = std::min(rest, budget);
  return !spec_.chunked_prefill && tokens < rest ? 0 : tokens;
}

std::int64_t ServingScheduler::blocks_needed(std::size_t id, std::int64_t tokens) const {
  const ServeSeq& s = seqs_[id];
  return std::max<std::int64_t>(0, pool_.blocks_for(s.computed + tokens) - s.blocks);
}

void ServingScheduler::commit(std::size_t id, std::int64_t tokens, StepPlan& plan, Budget& b, double now) {
  ServeSeq& s = seqs_[id];
  std::int64_t need = blocks_needed(id, tokens);
  allocate(need), s.blocks += need, b.tokens -= tokens;
  if (caching_) cache_prefix(id, s.computed + tokens);
  if (s.computed < s.prefill_len) plan.chunks.push_back({id, tokens});
  else plan.decodes.push_back(id);
  ServedRequest& r = log_.requests[id];
  if (r.first_scheduled < 0) r.first_scheduled = now;
}

bool ServingScheduler::take(std::size_t id, StepPlan& plan, Budget& b, double now) {
  std::int64_t tokens = wanted(id, b.tokens);
  if (tokens == 0 || blocks_needed(id, tokens) > allocatable()) return false;
  commit(id, tokens, plan, b, now);
  return true;
}

// Running sequences first, in admission order; blocks short: victim() is preempted (fcfs: the last
// admitted), until the blocks are free or the victim is the sequence itself.
void ServingScheduler::schedule_running(StepPlan& plan, Budget& b, double now) {
  for (std::size_t i = 0; i < running_.size() && b.tokens > 0; ++i) {
    std::size_t id = running_[i];
    if (seqs_[id].finished) {  // static batching: a finished slot still computes (padding), holds its blocks
      plan.padding += 1, plan.padding_context = std::max(plan.padding_context, seqs_[id].computed);
      b.tokens -= decode_tokens_;
      continue;
    }
    std::int64_t tokens = wanted(id, b.tokens);
    if (tokens == 0) break;
    std::int64_t need = blocks_needed(id, tokens);
    bool self = false;
    while (need > allocatable() && !self) {
      std::size_t v = victim();
      auto at = std::size_t(std::find(running_.begin(), running_.end(), v) - running_.begin());
      self = v == id;
      if (at < i) unschedule(v, plan, b), --i;  // scheduled earlier in this step (priority only)
      preempt(v, plan, now), b.preempted = true;
    }
    if (self) break;
    commit(id, tokens, plan, b, now);
  }
}

// FCFS: the last admitted; priority: the highest priority value, then the latest arrival (vLLM v1:
// max(self.running, key=(priority, arrival_time)); the request id breaks a tie of arrival times).
std::size_t ServingScheduler::victim() const {
  if (!spec_.priority_scheduling) return running_.back();
  auto rank = [&](std::size_t q) {
    const ServeRequest& r = spec_.requests[q];
    return std::tuple(r.priority, r.arrival, q);
  };
  return *std::max_element(running_.begin(), running_.end(),
                           [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
}

// Its tokens of this step back to the budget (vLLM: token_budget += num_scheduled_tokens.pop(...)).
void ServingScheduler::unschedule(std::size_t id, StepPlan& plan, Budget& b) {
  auto d = std::find(plan.decodes.begin(), plan.decodes.end(), id);
  if (d != plan.decodes.end()) {
    plan.decodes.erase(d), b.tokens += decode_tokens_;
    return;
  }
  auto c = std::find_if(plan.chunks.begin(), plan.chunks.end(), [&](const auto& ch) { return ch.first == id; });
  if (c != plan.chunks.end()) b.tokens += c->second, plan.chunks.erase(c);
}

void ServingScheduler::preempt(std::size_t victim, StepPlan& plan, double now) {
  running_.erase(std::find(running_.begin(), running_.end(), victim));
  ServeSeq& v = seqs_[victim];
  log_.preemptions += 1;
  log_.requests[victim].preemptions += 1;
  double bytes = pool_.block_bytes(v.blocks);
  if (spec_.preemption == Preemption::swap && v.blocks > 0 && bytes <= swap_free_) {
    swap_free_ -= bytes;
    plan.swap_out_blocks += v.blocks;
    v.swapped_blocks = v.blocks;
    free_blocks_of(victim, v.blocks), v.blocks = 0;
    swapped_.push_back(victim);
    log_.swap_outs += 1, log_.swapped_bytes += bytes * double(pool_.tp);
    log_.enter(victim, RequestPhase::Kind::swapped, now, instance_);
    return;
  }
  if (spec_.preemption == Preemption::swap) log_.swap_fallbacks += 1;
  free_blocks_of(victim, v.blocks);
  v.blocks = 0, v.computed = 0, v.prefix_seen = 0, v.prefill_len = log_.requests[victim].prompt + v.generated;
  enqueue(victim, true);
  log_.enter(victim, RequestPhase::Kind::preempted, now, instance_);
}

// Swapped sequences come back first, FIFO, when their blocks (and the next tokens') are free.
void ServingScheduler::swap_in(StepPlan& plan, Budget& b, double now) {
  while (!swapped_.empty() && std::int64_t(running_.size()) < spec_.max_batch && b.tokens > 0) {
    std::size_t id = swapped_.front();
    ServeSeq& s = seqs_[id];
    std::int64_t held = s.swapped_blocks;
    if (!take(id, plan, b, now)) break;
    swap_free_ += pool_.block_bytes(held);
    plan.swap_in_blocks += held;
    log_.swap_ins += 1, log_.swapped_bytes += pool_.block_bytes(held) * double(pool_.tp);
    s.swapped_blocks = 0;
    swapped_.pop_front();
    running_.push_back(id);
    bool prefilling = s.computed < s.prefill_len;
    log_.enter(id, prefilling ? RequestPhase::Kind::prefill : RequestPhase::Kind::decode, now, instance_);
  }
}

// New sequences (FCFS): continuous batching refills any free slot.
void ServingScheduler::admit_waiting(StepPlan& plan, Budget& b, double now) {
  while (!waiting_.empty() && std::int64_t(running_.size()) < spec_.max_batch && b.tokens > 0) {
    std::size_t id = waiting_.front();
    if (!admit(id, plan, b, now)) break;
    waiting_.pop_front();
    running_.push_back(id);
    bool prefilling = !plan.chunks.empty() && plan.chunks.back().first == id;
    log_.enter(id, prefilling ? RequestPhase::Kind::prefill : RequestPhase::Kind::decode, now, instance_);
  }
}

StepPlan ServingScheduler::schedule(double now) {
  StepPlan plan;
  Budget b;
  b.tokens = spec_.max_tokens_per_step;
  if (!spec_.continuous) admit_static(now);
  schedule_running(plan, b, now);
  if (b.preempted || !spec_.continuous) return plan;
  swap_in(plan, b, now);
  if (swapped_.empty()) admit_waiting(plan, b, now);
  return plan;
}

// Tokens a decode yields: 1, or with speculation the accepted drafts + 1 (capped at the output).
std::int64_t ServingScheduler::produced(std::size_t id, StepOutcome& out) {
  if (!spec_.speculative.on()) return 1;
  ServeSeq& s = seqs_[id];
  const SpeculativeSpec& sp = spec_.speculative;
  std::int64_t n = accepted_draft_tokens(spec_.seed, std::int64_t(id), s.rounds, sp.k, sp.accept);
  s.rounds += 1;
  out.verified += 1, out.accepted += n;
  return std::min(n + 1, log_.requests[id].output - s.generated);
}

void ServingScheduler::produce(std::size_t id, std::int64_t tokens, double now, StepOutcome& out) {
  ServeSeq& s = seqs_[id];
  ServedRequest& r = log_.requests[id];
  bool first = s.generated == 0;
  for (std::int64_t i = 0; i < tokens; ++i) log_.token_times[id].push_back(now);
  s.generated += tokens;
  if (first) r.first_token = now;
  if (s.generated == r.output) {
    s.finished = true;
    r.finish = now;
    log_.close(id, now);
    out.finished.push_back(id);
  } else if (role_ == InstanceRole::prefill) {
    out.handed_off.push_back(id);
    log_.enter(id, RequestPhase::Kind::handoff, now, instance_);
  } else if (r.phases.back().kind != RequestPhase::Kind::decode) {
    log_.enter(id, RequestPhase::Kind::decode, now, instance_);
  }
}

// Outcomes at `now`, the step's end: a decode adds its tokens; a chunk that completes its prefill
// adds one. Finished sequences leave (a static batch only once all of them are done), handed-off
// ones too, holding their blocks until release().
StepOutcome ServingScheduler::finish(const StepPlan& plan, double now) {
  StepOutcome out;
  for (std::size_t id : plan.decodes) {
    std::int64_t tokens = produced(id, out);
    seqs_[id].computed += tokens;
    produce(id, tokens, now, out);
  }
  for (auto [id, tokens] : plan.chunks) {
    seqs_[id].computed += tokens;
    if (seqs_[id].computed == seqs_[id].prefill_len) produce(id, 1, now, out);
  }
  bool all_done = std::all_of(running_.begin(), running_.end(), [&](std::size_t id) { return seqs_[id].finished; });
  std::vector<std::size_t> kept;
  for (std::size_t id : running_) {
    ServeSeq& s = seqs_[id];
    bool handed = !s.finished && std::find(out.handed_off.begin(), out.handed_off.end(), id) != out.handed_off.end();
    if (handed) handed_.emplace(id, s.blocks), s.blocks = 0;  // the decode instance's count from here
    else if (s.finished && (spec_.continuous || all_done)) free_blocks_of(id, s.blocks), s.blocks = 0;
    else kept.push_back(id);
  }
  running_ = std::move(kept);
  return out;
}

}  // namespace hwsim
