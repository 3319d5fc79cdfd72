// The scheduler's side of prefix caching (docs/serving.md, "Prefix caching"): a waiting request's
// lookup and admission, and the prefix blocks a scheduled chunk offers to the cache. As vLLM v1's
// KVCacheManager: get_computed_blocks (the longest chain of cached full blocks, at most the
// request's tokens − 1: the last token is recomputed for its logits), allocate_slots (the hit
// blocks taken, the rest allocated, the newly full blocks cached) and PrefixCacheStats (queries
// and hits of requests never preempted; a preempted request's lookups counted apart).
#include <algorithm>

#include "run/serving/serving_scheduler.h"

namespace hwsim {

std::int64_t ServingScheduler::cached_blocks(std::size_t id) const {
  const ServeRequest& r = spec_.requests[id];
  const ServeSeq& s = seqs_[id];
  if (!caching_ || r.prefix_group < 0 || s.computed > 0) return 0;
  std::int64_t limit = std::min(r.prefix_tokens, s.prefill_len - 1) / pool_.block;
  return cache_.chain(r.prefix_group, limit);
}

void ServingScheduler::record_lookup(std::size_t id, std::int64_t hit_tokens) {
  ServedRequest& q = log_.requests[id];
  const std::int64_t queried = seqs_[id].prefill_len;
  if (q.preemptions > 0) {
    log_.prefix_preempted_queries += queried, log_.prefix_preempted_hits += hit_tokens;
    return;
  }
  log_.prefix_queries += queried, log_.prefix_hits += hit_tokens;
  q.cached_tokens = hit_tokens;
}

// The hit blocks count as computed and held before the step's tokens are planned; when the rest
// does not fit (budget or blocks, the hit's free blocks no longer evictable), nothing changes.
bool ServingScheduler::admit(std::size_t id, StepPlan& plan, Budget& b, double now) {
  ServeSeq& s = seqs_[id];
  const bool lookup = caching_ && s.computed == 0;
  const std::int64_t hit = cached_blocks(id);
  if (hit == 0) {
    if (!take(id, plan, b, now)) return false;
    if (lookup) record_lookup(id, 0);
    return true;
  }
  const std::int64_t group = spec_.requests[id].prefix_group;
  s.computed = hit * pool_.block, s.blocks = hit;
  std::int64_t tokens = wanted(id, b.tokens);
  if (tokens == 0 || blocks_needed(id, tokens) > allocatable() - cache_.evictable_among(group, hit)) {
    s.computed = 0, s.blocks = 0;
    return false;
  }
  cache_.acquire(id, group, hit);
  s.prefix_seen = hit;
  record_lookup(id, hit * pool_.block);
  commit(id, tokens, plan, b, now);
  return true;
}

// Its full prefix blocks below `positions` not yet offered become the cached ones (or stay its own
// where the cache holds them already).
void ServingScheduler::cache_prefix(std::size_t id, std::int64_t positions) {
  const ServeRequest& r = spec_.requests[id];
  if (r.prefix_group < 0) return;
  ServeSeq& s = seqs_[id];
  const std::int64_t full = std::min(r.prefix_tokens, positions) / pool_.block;
  for (; s.prefix_seen < full; ++s.prefix_seen) cache_.insert(id, {r.prefix_group, s.prefix_seen});
}

}  // namespace hwsim
