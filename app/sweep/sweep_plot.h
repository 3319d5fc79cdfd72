#pragma once
// The picture of a sweep (sweep --svg FILE): a metric against one varied key, one line per
// combination of the other keys' values, from the rows of its output file. Points that failed
// are left out. The x values are the varied values read by the units parser (1 TB/s → 1e12).
#include <string>

#include "app/sweep/sweep_output.h"
#include "app/sweep/sweep_spec.h"

namespace hwsim {

// x_key "" = the first varied key; metric "" = a serving sweep's latency-throughput curve
// (serving_curve_svg: TTFT and TPOT against output tokens/s, each point labelled with its x_key
// value), else tokens_per_second when the rows have it, else seconds. Throws UserError(usage) for a key not varied or a metric not a column.
std::string sweep_plot(const SweepSpec& spec, const std::string& rows_path, SweepFormat format, std::string x_key,
                       std::string metric);

}  // namespace hwsim
