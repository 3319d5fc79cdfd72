// The Chrome trace of a warp-model kernel run (chrome://tracing, Perfetto): a process per SM, a
// track per traced warp named by its block and warp, and on each track the warp's long stalls and
// the runs between them (warp_trace.h). Formats only what KernelStats recorded.
#include <cmath>
#include <fmt/format.h>

#include "viz/warp/kernel_report.h"

namespace hwsim::warp {

std::string chrome_trace(const KernelRun& r) {
  using nlohmann::json;
  const auto& s = r.stats;
  json events = json::array();
  std::vector<bool> named_sm(std::size_t(std::max(s.sms_simulated, 1)), false);
  for (std::size_t i = 0; i < s.tracks.size(); ++i) {
    const TraceTrack& t = s.tracks[i];
    if (!named_sm[std::size_t(t.sm)]) {
      named_sm[std::size_t(t.sm)] = true;
      events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", t.sm}, {"args", {{"name", fmt::format("SM {}", t.sm)}}}});
      events.push_back({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", t.sm}, {"args", {{"sort_index", t.sm}}}});
    }
    events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", t.sm}, {"tid", i},
                      {"args", {{"name", fmt::format("block {} warp {}", t.cta, t.warp_in_cta)}}}});
    events.push_back({{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", t.sm}, {"tid", i}, {"args", {{"sort_index", i}}}});
  }
  const double us_per_cycle = 1e6 / r.clock_hz;
  // microseconds to 0.1 ns (a cycle is ~0.5 ns): short numbers keep the file small
  auto us = [&](std::int64_t cycles) { return std::round(double(cycles) * us_per_cycle * 1e4) / 1e4; };
  for (const auto& e : s.events) {
    const bool run = e.what == kTraceRun;
    const Instr& in = r.program.code[std::size_t(e.pc)];
    json args = {{"line", in.line}};
    if (run) {  // a run names its first line; a stall the instruction it waits at
      args["instructions"] = e.count;
      if (e.top_cycles) args["mostly stalled on"] = fmt::format("{} ({} cycles)", stall_name(Stall(e.top)), e.top_cycles);
    } else {
      args["instruction"] = in.text;
      if (e.count > 1) args["intervals"] = e.count;
    }
    events.push_back({{"name", run ? std::string("run") : std::string(stall_name(Stall(e.what)))},
                      {"cat", run ? "run" : "stall"},
                      {"ph", "X"},
                      {"ts", us(e.start)},
                      {"dur", us(e.end - e.start)},
                      {"pid", s.tracks[std::size_t(e.track)].sm},
                      {"tid", e.track},
                      {"args", args}});
  }
  json other = {{"kernel", r.program.name}, {"grid", r.grid}, {"block", r.block},
                {"traced", fmt::format("the first {} warps to start on each simulated SM", s.trace_warps)},
                {"events", fmt::format("a stall of {} cycles or more is an event; the issues and shorter stalls between "
                                       "are one run", s.trace_stall_cycles)}};
  if (s.events.size() >= s.trace_limit) other["truncated"] = fmt::format("at {} events", s.trace_limit);
  return json{{"traceEvents", events}, {"displayTimeUnit", "ns"}, {"otherData", other}}.dump() + "\n";
}

}  // namespace hwsim::warp
