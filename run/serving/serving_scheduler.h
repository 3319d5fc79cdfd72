#pragma once
// One serving instance's scheduler (docs/serving.md, "The scheduler"): which sequences run in the
// next engine step, under max_batch, max_tokens_per_step and the instance's paged KV pool, and what
// a finished step did to them. Pure bookkeeping: no SystemC, no hardware (app/serving_engine runs
// the steps it plans).
//
// Each step: (1) running sequences in admission order: one in prefill gets a chunk of its remaining
// prompt (up to the step's token budget), a decoding one 1 token (k + 1 with speculation: the last
// token and the k drafts); each takes the KV blocks its new positions need. When the pool has no
// free block, the last admitted running sequence is preempted: recompute (its blocks freed; it
// re-prefills its prompt and the tokens it generated) or swap (its blocks copied to host memory
// over the host link, back when blocks are free; recompute when the swap space is full).
// (2) If nothing was preempted: swapped sequences come back first (FIFO), then — only when none is
// left swapped — waiting ones are admitted first-come-first-served while max_batch, the budget
// and the blocks allow (static batching: only into an empty engine, each reserving its whole
// prompt + output).
//
// Roles: a mixed instance does both phases; a prefill instance hands each request off when its
// prefill produced the first token (its blocks held until the KV has left); a decode instance takes
// requests whose KV arrives from a prefill instance, blocks reserved before the transfer.
//
// Prefix caching (docs/serving.md, "Prefix caching"): a request admitted with nothing computed
// takes the longest chain of its group's cached full blocks (at most prefill − 1 tokens, as vLLM
// recomputes the last token) and prefills only the rest; the full prefix blocks a step will compute
// are cached when it is scheduled (as vLLM's allocate_slots caches them). A free cached block counts
// as free: it is evicted (least recently freed first) once the never-cached free blocks are gone.
// Priorities (scheduling=priority, "Priorities"): the waiting queue is ordered by (priority,
// arrival); the victim of a preemption is the running request of the highest priority value, then
// the latest arrival (vLLM v1's Scheduler.schedule); a waiting request never preempts a running one.
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "run/serving/serving_log.h"
#include "run/serving/serving_pool.h"
#include "run/serving/serving_prefix_cache.h"
#include "workloads/serve/serve_spec.h"

namespace hwsim {

enum class InstanceRole { mixed, prefill, decode };

// A request's state in the engines, shared by the instances it passes through.
struct ServeSeq {
  std::int64_t prefill_len = 0;     // positions its (re)prefill covers: the prompt, + generated after a recompute
  std::int64_t computed = 0;        // positions whose KV is in the cache
  std::int64_t generated = 0;       // output tokens so far
  std::int64_t blocks = 0;          // KV blocks held on its instance
  std::int64_t swapped_blocks = 0;  // KV blocks held in host memory (preemption=swap)
  std::int64_t rounds = 0;          // verification steps so far (the acceptance draws' index)
  std::int64_t prefix_seen = 0;     // its prefix blocks already taken from or offered to the prefix cache
  bool finished = false;
};

// One step's work.
struct StepPlan {
  std::vector<std::size_t> decodes;                          // decoding sequences
  std::vector<std::pair<std::size_t, std::int64_t>> chunks;  // prefill chunks: (sequence, tokens)
  std::int64_t padding = 0, padding_context = 0;  // static batching: finished slots that still compute
  std::int64_t swap_out_blocks = 0, swap_in_blocks = 0;  // per device, copied before the step runs
  bool empty() const { return decodes.empty() && chunks.empty() && padding == 0; }
};

// What a finished step did.
struct StepOutcome {
  std::vector<std::size_t> finished;    // produced their last token
  std::vector<std::size_t> handed_off;  // prefill instance: first token out, KV to go to a decode instance
  std::int64_t verified = 0, accepted = 0;  // speculation: sequences verified, draft tokens accepted
};

class ServingScheduler {
 public:
  ServingScheduler(const ServeSpec& spec, const KvPool& pool, InstanceRole role, int instance,
                   std::vector<ServeSeq>& seqs, ServingLog& log);

  void arrive(std::size_t id, double now);  // a new request joins the queue
  // Decode instance: reserves the blocks of a request's transferred KV; false when they are not free.
  bool reserve_incoming(std::size_t id);
  void incoming_arrived(std::size_t id, double now);  // its KV is here: it waits to decode
  void release(std::size_t id);                       // prefill instance: its KV has left
  StepPlan schedule(double now);
  StepOutcome finish(const StepPlan& plan, double now);

  std::int64_t load() const;  // requests here not finished: waiting, swapped, running, incoming
  // Blocks held by requests (a shared prefix block once); free cached blocks count as free, as vLLM's usage.
  std::int64_t used_blocks() const { return pool_.blocks - free_blocks_ - cache_.evictable(); }
  std::int64_t waiting() const { return std::int64_t(waiting_.size() + swapped_.size()); }
  const KvPool& pool() const { return pool_; }
  // Query tokens a decoding sequence adds per step: 1, or k + 1 with speculation.
  std::int64_t decode_tokens() const { return decode_tokens_; }

 private:
  struct Budget {  // what is left of a step while it is being planned
    std::int64_t tokens = 0;
    bool preempted = false;
  };
  void admit_static(double now);
  void schedule_running(StepPlan& plan, Budget& b, double now);
  void swap_in(StepPlan& plan, Budget& b, double now);
  void admit_waiting(StepPlan& plan, Budget& b, double now);
  // Tokens `id` would add this step: a chunk of its prefill or a decode's query tokens (0: they do
  // not fit the budget, or a whole prompt does not without chunked prefill).
  std::int64_t wanted(std::size_t id, std::int64_t budget) const;
  std::int64_t blocks_needed(std::size_t id, std::int64_t tokens) const;
  void commit(std::size_t id, std::int64_t tokens, StepPlan& plan, Budget& b, double now);
  // Schedules `id`'s next tokens if the budget and the free blocks allow.
  bool take(std::size_t id, StepPlan& plan, Budget& b, double now);
  // A waiting request's admission: with nothing computed, its cached prefix first (prefix caching).
  bool admit(std::size_t id, StepPlan& plan, Budget& b, double now);
  std::int64_t cached_blocks(std::size_t id) const;  // the prefix blocks a lookup would hit
  void record_lookup(std::size_t id, std::int64_t hit_tokens);
  void cache_prefix(std::size_t id, std::int64_t positions);  // offers its prefix blocks below positions
  std::int64_t allocatable() const { return free_blocks_ + cache_.evictable(); }
  void allocate(std::int64_t blocks);                     // never-cached free blocks first, then evictions
  void free_blocks_of(std::size_t id, std::int64_t blocks);  // its own blocks freed, its references dropped
  void enqueue(std::size_t id, bool front);               // into the waiting queue (fcfs: front or back)
  std::size_t victim() const;                             // whom a preemption takes
  void unschedule(std::size_t id, StepPlan& plan, Budget& b);  // drops this step's work of `id`
  void preempt(std::size_t victim, StepPlan& plan, double now);
  std::int64_t produced(std::size_t id, StepOutcome& out);
  void produce(std::size_t id, std::int64_t tokens, double now, StepOutcome& out);

  const ServeSpec& spec_;
  KvPool pool_;
  InstanceRole role_;
  int instance_;
  std::vector<ServeSeq>& seqs_;
  ServingLog& log_;
  std::int64_t decode_tokens_ = 1, lookahead_ = 0;
  std::int64_t free_blocks_ = 0;         // free and never cached (or evicted)
  bool caching_ = false;                 // prefix caching (continuous batching only)
  PrefixCache cache_;
  double swap_free_ = 0;                 // bytes of host swap space left, per device
  std::vector<std::size_t> running_;     // admission order
  std::deque<std::size_t> waiting_;      // arrived or preempted (preempted go first), FIFO
  std::deque<std::size_t> swapped_;      // swapped out, FIFO
  std::int64_t incoming_ = 0;            // decode instance: KV reserved, not yet arrived
  std::map<std::size_t, std::int64_t> handed_;  // prefill instance: handed off, KV not yet gone → its blocks
};

}  // namespace hwsim
