#pragma once
// The summary table at the top of a run's HTML page, the figures its reader looks for first, by
// kind of run: a device or a system (time against the roofline floor, where the time went, power,
// the language-model or microcontroller figures, the system), a serving run (what vLLM's
// benchmark_serving reports, and energy per token), a run of collectives alone (the nccl-tests
// figures). Formats only what the result structs hold.
#include <string>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

std::string device_summary(const Config& config, const Workload& workload, const RunResult& r);
std::string serving_summary(const Config& config, const Workload& workload, const RunResult& r);
std::string collective_summary(const Config& config, const Workload& workload, const RunResult& r);

}  // namespace hwsim
