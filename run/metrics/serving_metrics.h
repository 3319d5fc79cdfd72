#pragma once
// Derives RunResult::serving once from the serving run's log (docs/serving.md), as serving
// benchmarks (vLLM's benchmark_serving) define the figures:
// - TTFT: first token − arrival; E2E: last token − arrival; TPOT per request: (E2E − TTFT) /
//   (output − 1), over requests with output > 1; ITL: every gap between consecutive token arrivals
//   of a request (tokens that come out of one speculative step together arrive as one chunk, one
//   gap, as benchmark_serving times streamed chunks); each as mean and p50/p90/p99
//   (numpy.percentile's linear interpolation).
// - requests/s, output and total (prompt + output) tokens/s over the run's duration (0 → last token).
// - SLO attainment: the fraction of requests with TTFT ≤ slo_ttft and TPOT ≤ slo_tpot (bounds given).
// - per instance: its pool, steps, busy time, time-weighted batch and KV use; swaps; KV transfers;
//   speculation's acceptance, the draft's share of the time and the speed-up over the baseline.
#include <vector>

#include "run/serving/serving_deployment.h"
#include "sim/result_serving.h"

namespace hwsim {

// Percentile q (0..100) of `sorted` (ascending), linear interpolation; 0 when empty.
double percentile(const std::vector<double>& sorted, double q);
LatencyStats latency_stats(std::vector<double> values);

// What the run was besides its log: its system's name (empty on a chip) and the host link's rate.
struct ServingSetting {
  std::string system;
  double host_link_bandwidth = 0;
};

ServingMetrics compute_serving_metrics(const ServeSpec& spec, const ServingDeployment& runner, ServingLog& log,
                                       const ServingSetting& setting);

// Speculation's figures from the run's steps, and the comparison with `baseline` (the same requests
// without speculation; null when it was not simulated).
SpeculativeMetrics speculative_metrics(const ServeSpec& spec, const ServingMetrics& m, const KvPool& pool,
                                       const ServingMetrics* baseline);

// Prefix caching's hit rate and per-priority latencies (serving_metrics_sharing.cpp).
void sharing_metrics(const ServeSpec& spec, const ServingLog& log, ServingMetrics& m);
// Per-instance figures, the pools' use over time and the series samples (serving_metrics_time.cpp).
void instance_metrics(ServingMetrics& m, const ServingDeployment& runner);
// The output tokens per second between consecutive series samples, from when each token came out.
void throughput_series(ServingMetrics& m, const std::vector<std::vector<double>>& token_times);

}  // namespace hwsim
