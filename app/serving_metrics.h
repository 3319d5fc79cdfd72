#pragma once
// Derives RunResult::serving once from the serving runner's log (docs/serving.md), as serving
// benchmarks (vLLM's benchmark_serving) define the figures:
// - TTFT: first token − arrival; E2E: last token − arrival; TPOT per request: (E2E − TTFT) /
//   (output − 1), over requests with output > 1; ITL: every gap between consecutive tokens of a
//   request; each as mean and p50/p90/p99 (numpy.percentile's linear interpolation).
// - requests/s, output and total (prompt + output) tokens/s over the run's duration (0 → last token).
// - SLO attainment: the fraction of requests with TTFT ≤ slo_ttft and TPOT ≤ slo_tpot (bounds given).
#include <vector>

#include "app/serving_pool.h"
#include "app/serving_runner.h"
#include "sim/result_serving.h"

namespace hwsim {

// Percentile q (0..100) of `sorted` (ascending), linear interpolation; 0 when empty.
double percentile(const std::vector<double>& sorted, double q);
LatencyStats latency_stats(std::vector<double> values);

ServingMetrics compute_serving_metrics(const ServeSpec& spec, const KvPool& pool, ServingLog& log);

}  // namespace hwsim
