#pragma once
// One row of a sweep's output: the point (index, the varied values), its status and the run's key
// metrics, or the error line of a point that failed. The metrics are RunResult fields computed by
// finalize() and the LLM metrics; nothing is derived here.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/sweep/sweep_spec.h"
#include "sim/result.h"

namespace hwsim {

// The metric columns every sweep writes, in order (CSV header after the varied keys and status).
// Every share is a fraction in [0, 1] (peak_share, throttled_share, mbu, mfu), every time in seconds.
// seconds: the whole run; achieved_flop_rate FLOP/s; peak_share; memory_bandwidth: main
// memory bytes/s achieved; times_floor: seconds / roofline floor; bound; energy J; average_power W;
// the language-model ones (empty for other workloads): tokens_per_second, ttft, tpot (seconds),
// mbu, mfu (fractions; a figure the run does not have is empty: ttft of a decode). A serve run (docs/serving.md): seconds is its duration, tokens_per_second its
// output tokens/s, ttft and tpot the means over its requests.
const std::vector<std::string>& sweep_metric_columns();

// A sweep of a serve workload: its rows add benchmark_serving's figures (serving_metric_columns),
// and its picture is the latency-throughput curve.
bool serving_sweep(const SweepSpec& spec);
// request_throughput (requests/s), request_goodput (requests/s within every SLO given; empty
// without one), slo_attainment (fraction; empty without an SLO), and the p50/p99 of TTFT, TPOT,
// ITL and E2E latency (seconds): ttft_p50, ttft_p99, tpot_p50, tpot_p99, itl_p99, e2el_p50, e2el_p99;
// prefix_hit_rate (vLLM's prefix cache hit rate; empty with prefix_caching=false).
const std::vector<std::string>& serving_metric_columns();
// Every numeric column a sweep of `spec` writes (what --plot-y may name).
std::vector<std::string> plot_metric_columns(const SweepSpec& spec);

// The metrics of one finished run, keyed by sweep_metric_columns() (LLM ones only when present).
nlohmann::ordered_json run_metrics(const RunResult& r);

// A whole row: {"index", <key>: value..., "status": "ok"|"error", metrics... | "error": line}.
nlohmann::ordered_json sweep_row(const SweepSpec& spec, const SweepPoint& point, const nlohmann::ordered_json& metrics,
                                 const std::string& error);

}  // namespace hwsim
