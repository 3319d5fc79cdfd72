#include "models/gpu/warp/warp_trace.h"

namespace hwsim::warp {
namespace {

void push(KernelStats& s, TraceTrack& t, const TraceEvent& e) {
  if (s.events.size() >= s.trace_limit) return;
  t.last_event = std::int64_t(s.events.size());
  s.events.push_back(e);
}

void close_run(KernelStats& s, int track) {
  TraceTrack& t = s.tracks[std::size_t(track)];
  if (t.run_start < 0) return;
  TraceEvent e{t.run_start, t.run_end, track, kTraceRun, t.run_pc, t.run_instructions, std::uint8_t(Stall::selected), 0};
  for (int k = 0; k < int(Stall::count); ++k)
    if (Stall(k) != Stall::selected && t.run_cycles[std::size_t(k)] > e.top_cycles)
      e.top = std::uint8_t(k), e.top_cycles = t.run_cycles[std::size_t(k)];
  push(s, t, e);
  t.run_start = -1;
}

}  // namespace

void trace_interval(KernelStats& s, int track, std::int64_t from, std::int64_t to, Stall why, int pc) {
  TraceTrack& t = s.tracks[std::size_t(track)];
  if (why != Stall::selected && to - from >= s.trace_stall_cycles) {
    close_run(s, track);
    if (t.last_event >= 0) {  // the same long stall going on: one longer event
      TraceEvent& last = s.events[std::size_t(t.last_event)];
      if (last.what == std::uint8_t(why) && last.end == from) {
        last.end = to;
        ++last.count;
        return;
      }
    }
    push(s, t, TraceEvent{from, to, track, std::uint8_t(why), pc, 1, 0, 0});
    return;
  }
  if (t.run_start < 0) {
    t.run_start = from, t.run_pc = pc, t.run_instructions = 0;
    t.run_cycles.fill(0);
  }
  t.run_end = to;
  t.run_cycles[std::size_t(why)] += std::uint32_t(to - from);
  if (why == Stall::selected) ++t.run_instructions;
}

void trace_finish(KernelStats& s) {
  for (std::size_t i = 0; i < s.tracks.size(); ++i) close_run(s, int(i));
}

}  // namespace hwsim::warp
