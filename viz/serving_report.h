#pragma once
// The report of a `serve` run (RunResult::serving present): the KV pool as vLLM prints it at
// start-up, throughput, latency distributions, SLO attainment, batch occupancy and KV use over
// time — in text and JSON (`result.serving`, fields in docs/serving.md). Formats only.
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace hwsim {

// The body of the text report (after its chip and workload lines).
void print_serving_report(std::ostream& out, const RunResult& r);
// result.serving; null when absent.
nlohmann::json serving_json(const RunResult& r);

}  // namespace hwsim
