#pragma once
// Human summary of one run: an aligned table on a stream.
#include <iosfwd>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

void print_text_report(std::ostream& out, const Config& config, const Workload& workload, const RunResult& r);

}  // namespace hwsim
