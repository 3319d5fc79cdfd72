#pragma once
// The pictures of a run and of a sweep, as standalone <svg> elements. Every number drawn is a
// field of the result structs (sim/result*.h, computed once by finalize()) or of a sweep's rows;
// the charts only place them.
//  - roofline_svg: every record with FLOPs as a point (arithmetic intensity of its minimum traffic,
//    achieved FLOP/s), one roof per dtype present (its peak FLOP/s; the main-memory slope), each
//    ridge dashed; and a slope per other memory level with a peak bandwidth (RunResult::
//    memory_level_bandwidth: L2, MALL, VMEM; flash beside an MCU's SRAM) up to the highest compute
//    roof, its ridge there. The main slope is the level the records' roofs use (main memory; an
//    MCU's SRAM arena).
//  - breakdown_svg: where the time went (compute, memory, communication, overhead, idle), and for
//    a language model the time per op class.
//  - timeline_svg: a Gantt chart, one row per simulated device, one bar per record.
//  - power_svg: power over time (RunResult::power.trace) against the power limit and idle power, and
//    the SM clock on its own panel below.
//  - sweep_svg: a metric against a varied key, one line per series.
//  - serving_curve_svg: a serving sweep's latency against throughput.
// Big runs: at most kMaxChartRecords records are drawn (evenly sampled for the roofline, the
// first ones in time for the timeline), and the chart says so.
#include <string>
#include <utility>
#include <vector>

#include "sim/result.h"

namespace hwsim {

inline constexpr std::size_t kMaxChartRecords = 4000;

std::string roofline_svg(const RunResult& r);
std::string breakdown_svg(const RunResult& r);
std::string timeline_svg(const RunResult& r);
std::string power_svg(const RunResult& r);
//  - latency_svg: a serving run's TTFT, TPOT, ITL and E2E distributions (cumulative, log time).
//  - serving_time_svg: output tokens/s, sequences running and waiting, and KV cache use over the run.
//  - collective_svg: bus and algorithm bandwidth against message size (a run of collectives alone).
std::string latency_svg(const ServingMetrics& m);
std::string serving_time_svg(const ServingMetrics& m);
std::string collective_svg(const SystemMetrics& m);

struct SweepSeries {
  std::string name;                               // "workload.batch=8" ("" when one series)
  std::vector<std::pair<double, double>> points;  // (x, y) in x order
};
// log_x: a geometric sweep (x spans more than a factor 20) reads better on a log axis.
std::string sweep_svg(const std::string& title, const std::string& x_label, const std::string& y_label,
                      const std::vector<SweepSeries>& series, bool log_x);

// A serving sweep's latency-throughput curve (sweep --svg over a serve workload's rate): per
// series, TTFT and TPOT (p50 and p99) against the output tokens/s the run reached, each point
// labelled with its varied value; two charts, stacked into one document (svg::stack).
struct ServingCurvePoint {
  double x = 0;  // the varied value (a request rate)
  double throughput = 0, ttft_p50 = 0, ttft_p99 = 0, tpot_p50 = 0, tpot_p99 = 0;  // tokens/s, seconds
};
struct ServingCurve {
  std::string name;  // the other varied keys ("" when one series)
  std::vector<ServingCurvePoint> points;  // in x order
};
std::string serving_curve_svg(const std::string& x_key, const std::vector<ServingCurve>& curves);

}  // namespace hwsim
