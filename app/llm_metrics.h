#pragma once
// Derives the language-model metrics of a finished run (RunResult::llm) from the Workload (tokens
// per step, phases) and the finalized records (times, bytes, floors). Called once by the runner.
#include <string>

#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// The operation a record belongs to: its name without the layer prefix "L<i>.".
std::string operation_of(const std::string& record_name);

LlmMetrics compute_llm_metrics(const Workload& workload, const RunResult& result);

}  // namespace hwsim
