#pragma once
// One self-contained HTML page of a run (--html FILE): the summary, the pictures (roofline, time
// breakdown, timeline: viz/svg/charts.h, inline SVG), and a kernel table sortable by any column
// (a few lines of inline script). Inline CSS, no network, no external file. A printer: every
// number is a result field, formatted.
#include <string>

#include "sim/config/config.h"
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

// At most this many records in the table (the first in run order; the page says so).
inline constexpr std::size_t kMaxTableRecords = 2000;

std::string html_report(const Config& config, const Workload& workload, const RunResult& r);

// All of a run's charts in one SVG document, stacked (--svg FILE).
std::string svg_report(const RunResult& r);

}  // namespace hwsim
