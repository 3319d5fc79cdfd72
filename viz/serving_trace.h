#pragma once
// The Chrome trace of a `serve` run (chrome://tracing, Perfetto): a process of engines with one
// track per serving instance holding its steps (swaps and draft passes inside them), and a process
// of requests with one track per request holding its phases — queued, prefill, decode, and where
// they happen, preempted, swapped out, waiting for a decode instance's blocks, KV transfer.
// Formats RunResult::serving only.
#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace hwsim {

nlohmann::json serving_timeline_trace(const RunResult& result);

}  // namespace hwsim
