#pragma once
// Serving metrics of a `serve` run (RunResult::serving), derived once by app/serving_metrics.cpp
// from the serving engines' per-request and per-step log; printers only format.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

// A latency distribution over requests (or gaps): mean and percentiles (linear interpolation
// between order statistics, as numpy.percentile), seconds.
struct LatencyStats {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
  double std = 0;  // population standard deviation (numpy.std)
  std::int64_t count = 0;
  // The distribution: the percentiles 0, 100/(n−1), ..., 100 (n = kLatencyQuantiles; empty without
  // values), what a CDF draws.
  std::vector<double> quantiles;
};

inline constexpr std::size_t kLatencyQuantiles = 41;

// A stretch of a request's life on one instance (the per-request tracks of the Chrome trace).
struct RequestPhase {
  enum class Kind { queued, prefill, decode, preempted, swapped, handoff, transfer };
  Kind kind = Kind::queued;
  double start = 0, end = 0;
  int instance = 0;
};

// One request's life (seconds from the start of the run).
struct ServedRequest {
  std::int64_t id = 0, prompt = 0, output = 0;
  double arrival = 0, first_scheduled = 0, first_token = 0, finish = 0;
  std::int64_t preemptions = 0;
  std::int64_t priority = 0;       // its priority (scheduling=priority: lower first)
  std::int64_t cached_tokens = 0;  // prompt tokens its first admission found in the prefix cache
  int instance = 0, decode_instance = -1;  // where it arrived; where it decoded (disaggregated)
  std::vector<RequestPhase> phases;
};

// One engine step of one instance.
struct ServingStep {
  int instance = 0;
  double start = 0, seconds = 0;
  double draft_seconds = 0;        // speculation: the draft's passes
  double swap_seconds = 0;         // preemption=swap: KV copied over the host link before the passes
  std::int64_t decodes = 0, prefill_tokens = 0, sequences = 0;
  std::int64_t verified = 0, accepted = 0;  // speculation: sequences verified, draft tokens accepted
  std::int64_t waiting = 0;        // queued or swapped on the instance, after scheduling
  std::int64_t kv_blocks_used = 0; // the instance's, after scheduling
  bool reused = false;             // every pass's time taken from an identical earlier one
};

// A request's KV cache moved from a prefill instance to a decode instance (disaggregation).
struct KvTransferRecord {
  std::int64_t request = 0;
  int from = 0, to = 0;            // instances
  double start = 0, seconds = 0, bytes = 0;
};

// One serving instance: an engine on `tp` devices.
struct ServingInstance {
  std::string role;                // "mixed", "prefill", "decode"
  std::vector<std::int64_t> devices;
  std::int64_t kv_capacity_tokens = 0, kv_capacity_blocks = 0;
  std::int64_t requests = 0, steps = 0;
  double busy_s = 0, mean_batch = 0, mean_kv_use = 0, peak_kv_use = 0;
};

// Speculative decoding's figures, and the same requests served without it (the baseline).
struct SpeculativeMetrics {
  bool present = false;
  std::string draft;
  std::int64_t k = 0;
  double accept = 0;
  std::int64_t verifications = 0;       // sequence-steps verified
  double accepted_per_step = 0;         // draft tokens accepted per sequence per step (mean)
  double tokens_per_step = 0;           // tokens a sequence gained per verification step (mean)
  double expected_tokens_per_step = 0;  // (1 − a^(k+1)) / (1 − a)
  double draft_share = 0;               // of the engines' busy time, the draft's passes
  double draft_weight_bytes = 0, draft_kv_bytes_per_token = 0;  // per device
  bool baseline = false;                // the run without speculation was simulated
  double baseline_duration_s = 0, baseline_output_tokens_per_s = 0;
  LatencyStats baseline_tpot_s, baseline_ttft_s, baseline_e2e_s;
  double speedup = 0;                   // output tokens/s with ÷ without speculation
  double tpot_speedup = 0;              // mean TPOT without ÷ with
};

struct ServingMetrics {
  bool present = false;
  std::string batching;                 // "continuous" | "static"
  std::int64_t requests = 0;
  std::int64_t max_batch = 0, max_tokens_per_step = 0;
  // The paged KV pool of each instance, sized as vLLM sizes it: device memory × gpu_memory_utilization
  // − weights − activation peak, in blocks of `block_tokens` (the first instance's; per device).
  double device_memory_bytes = 0, gpu_memory_utilization = 0, weight_bytes = 0, activation_peak_bytes = 0;
  double kv_pool_bytes = 0, kv_bytes_per_token = 0;
  std::int64_t block_tokens = 0, kv_capacity_blocks = 0, kv_capacity_tokens = 0;  // every instance
  double duration_s = 0;                // first arrival at 0 to the last token
  // Energy of every device of the deployment over the run (each pass's records, idle power
  // between passes), and what it buys.
  double energy = 0, average_power = 0;  // joules; watts per device
  double joules_per_output_token = 0, output_tokens_per_joule = 0;
  std::int64_t prompt_tokens = 0, output_tokens = 0;
  double requests_per_s = 0, output_tokens_per_s = 0, total_tokens_per_s = 0;
  LatencyStats ttft_s, tpot_s, itl_s, e2e_s;
  double slo_ttft_s = 0, slo_tpot_s = 0, slo_e2el_s = 0;  // 0: no bound
  double slo_attainment = 0;            // fraction of requests within every given bound
  double request_goodput = 0;           // requests within every given bound per second (0: no bound)
  std::int64_t engine_steps = 0, simulated_steps = 0, preemptions = 0;
  double mean_batch = 0;                // sequences per step, time-weighted
  double mean_kv_use = 0, peak_kv_use = 0;  // fraction of the pools' blocks, time-weighted / max
  // Preemption (vLLM preemption_mode): swaps over the host link, and recomputes where the swap
  // space was full.
  std::string preemption = "recompute";
  std::int64_t swap_outs = 0, swap_ins = 0, swap_fallbacks = 0;
  double swapped_bytes = 0, swap_seconds = 0, host_link_bandwidth = 0, swap_space_bytes = 0;
  // Where the engines ran: one instance on a chip; replicas or prefill/decode instances on a system.
  std::string system;                   // the system's name; empty on one chip
  std::string layout;                   // "1 instance, tp=1", "2 replicas of tp=2", "1P2D, tp=1/1"
  std::vector<ServingInstance> instances;
  bool reuse_limited = false;           // some tp instance simulated every step (links shared)
  // Disaggregation: every KV hand-over from a prefill to a decode instance.
  std::int64_t kv_transfers = 0;
  double kv_transfer_bytes = 0;
  LatencyStats kv_transfer_s;
  SpeculativeMetrics speculative;
  // Prefix caching (docs/serving.md, "Prefix caching"): vLLM's hit rate = hits / queries (prompt
  // tokens found cached / looked up, by requests never preempted); preempted requests' lookups apart.
  bool prefix_caching = false;
  std::int64_t prefix_queries = 0, prefix_hits = 0, prefix_preempted_queries = 0, prefix_preempted_hits = 0;
  std::int64_t prefix_evictions = 0;    // cached blocks evicted for room
  double prefix_hit_rate = 0;
  // Priorities (scheduling=priority or requests of several priorities): per priority value, lowest first.
  struct PriorityClass {
    std::int64_t priority = 0, requests = 0;
    LatencyStats ttft_s, e2e_s;
  };
  std::string scheduling = "fcfs";
  std::vector<PriorityClass> priority_classes;
  std::vector<ServingStep> steps;       // every engine step
  std::vector<ServedRequest> per_request;
  // Occupancy and KV use over time: at most kServingSamples evenly spaced samples.
  struct Sample {
    double t = 0;
    std::int64_t running = 0, waiting = 0;
    double kv_use = 0;
    // Tokens out of every instance from t to the next sample (the last: to the end), per second.
    double output_tokens_per_s = 0;
  };
  std::vector<Sample> series;
};

inline constexpr std::size_t kServingSamples = 50;

// "queued", "prefill", "decode", "preempted (recompute)", "swapped out", "waiting for decode KV
// blocks", "KV transfer".
inline const char* phase_name(RequestPhase::Kind kind) {
  switch (kind) {
    case RequestPhase::Kind::queued: return "queued";
    case RequestPhase::Kind::prefill: return "prefill";
    case RequestPhase::Kind::decode: return "decode";
    case RequestPhase::Kind::preempted: return "preempted (recompute)";
    case RequestPhase::Kind::swapped: return "swapped out";
    case RequestPhase::Kind::handoff: return "waiting for decode KV blocks";
    case RequestPhase::Kind::transfer: return "KV transfer";
  }
  return "?";
}

}  // namespace hwsim
