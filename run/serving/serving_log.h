#pragma once
// What the serving engines record while they run (docs/serving.md), for app/serving_metrics: each
// request's life (times, tokens, phases on the instances), every engine step, each distinct step
// shape's records once, and the counters of preemptions, swaps and KV transfers.
#include <cstdint>
#include <vector>

#include "sim/result.h"
#include "sim/run_totals.h"

namespace hwsim {

// One pass of an engine step on an instance's device: when it ran and what its records added (the
// same object for every reuse of one simulated pass).
struct PassWork {
  int instance = 0;
  double start = 0, end = 0;
  std::shared_ptr<const RunTotals> totals;
};

struct ServingLog {
  std::vector<ServedRequest> requests;           // by request id
  std::vector<std::vector<double>> token_times;  // per request id: when each output token came out
  std::vector<ServingStep> steps;                // every engine step of every instance, as they ended
  std::vector<StepResult> distinct;              // each distinct step shape once, as simulated
  std::vector<PassWork> passes;                  // every pass of every instance, as they ended
  std::vector<KvTransferRecord> transfers;       // disaggregation: every KV hand-over
  std::int64_t simulated = 0, preemptions = 0;
  std::int64_t swap_outs = 0, swap_ins = 0, swap_fallbacks = 0;
  double swapped_bytes = 0;  // out and in, every device
  // Prefix caching (vLLM PrefixCacheStats): prompt tokens looked up and found cached, for requests
  // never preempted and apart for preempted ones coming back; cached blocks evicted for room.
  std::int64_t prefix_queries = 0, prefix_hits = 0, prefix_preempted_queries = 0, prefix_preempted_hits = 0;
  std::int64_t prefix_evictions = 0;

  // Request `id` enters phase `kind` on `instance` at `t` (the phase it was in ends there).
  void enter(std::size_t id, RequestPhase::Kind kind, double t, int instance) {
    close(id, t);
    requests[id].phases.push_back({kind, t, t, instance});
    open_.resize(requests.size(), 0);
    open_[id] = 1;
  }
  // Its current phase ends at `t`.
  void close(std::size_t id, double t) {
    if (id < open_.size() && open_[id]) requests[id].phases.back().end = t, open_[id] = 0;
  }

 private:
  std::vector<char> open_;  // per request: its last phase is still open
};

}  // namespace hwsim
