#pragma once
// Serving metrics of a `serve` run (RunResult::serving), derived once by app/serving_metrics.cpp
// from the serving runner's per-request and per-step log; printers only format.
#include <cstdint>
#include <string>
#include <vector>

namespace hwsim {

// A latency distribution over requests (or gaps): mean and percentiles (linear interpolation
// between order statistics, as numpy.percentile), seconds.
struct LatencyStats {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
  std::int64_t count = 0;
};

// One request's life (seconds from the start of the run).
struct ServedRequest {
  std::int64_t id = 0, prompt = 0, output = 0;
  double arrival = 0, first_scheduled = 0, first_token = 0, finish = 0;
  std::int64_t preemptions = 0;
};

// One engine step.
struct ServingStep {
  double start = 0, seconds = 0;
  std::int64_t decodes = 0, prefill_tokens = 0, sequences = 0;
  std::int64_t waiting = 0;        // arrived, not running, after scheduling
  std::int64_t kv_blocks_used = 0; // after scheduling
  bool reused = false;             // records taken from an identical earlier step
};

struct ServingMetrics {
  bool present = false;
  std::string batching;                 // "continuous" | "static"
  std::int64_t requests = 0;
  std::int64_t max_batch = 0, max_tokens_per_step = 0;
  // The paged KV pool, sized as vLLM sizes it: device memory × gpu_memory_utilization − weights −
  // activation peak, in blocks of `block_tokens`.
  double device_memory_bytes = 0, gpu_memory_utilization = 0, weight_bytes = 0, activation_peak_bytes = 0;
  double kv_pool_bytes = 0, kv_bytes_per_token = 0;
  std::int64_t block_tokens = 0, kv_capacity_blocks = 0, kv_capacity_tokens = 0;
  double duration_s = 0;                // first arrival at 0 to the last token
  std::int64_t prompt_tokens = 0, output_tokens = 0;
  double requests_per_s = 0, output_tokens_per_s = 0, total_tokens_per_s = 0;
  LatencyStats ttft_s, tpot_s, itl_s, e2e_s;
  double slo_ttft_s = 0, slo_tpot_s = 0;  // 0: no bound
  double slo_attainment = 0;            // fraction of requests within every given bound
  std::int64_t engine_steps = 0, simulated_steps = 0, preemptions = 0;
  double mean_batch = 0;                // sequences per step, time-weighted
  double mean_kv_use = 0, peak_kv_use = 0;  // fraction of the pool's blocks, time-weighted / max
  std::vector<ServingStep> steps;       // every engine step
  std::vector<ServedRequest> per_request;
  // Occupancy and KV use over time: at most kServingSamples evenly spaced samples.
  struct Sample {
    double t = 0;
    std::int64_t running = 0, waiting = 0;
    double kv_use = 0;
  };
  std::vector<Sample> series;
};

inline constexpr std::size_t kServingSamples = 50;

}  // namespace hwsim
