#pragma once
// Human summary of one run: an aligned table on a stream.
#include <iosfwd>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// `hint_json`: end with where every record is (--json FILE); false when the run writes it already.
void print_text_report(std::ostream& out, const Config& config, const Workload& workload, const RunResult& r,
                       bool hint_json = true);

}  // namespace hwsim
