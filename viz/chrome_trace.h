#pragma once
// The kernel timeline of a tile-level run as a Chrome trace (chrome://tracing, Perfetto): one
// track of steps and one of kernels, each kernel an event with its class, lowering, bound, bytes
// per level and CTAs; its launch is a separate event before it. On a system: one process per
// simulated device (pipeline stage), each with its kernels and its collectives (links) tracks.
// Events are written as text directly (viz/json_text.h), byte for byte what nlohmann's dump()
// of the trace document writes; a run that streams its steps (ChromeTraceStream) keeps them in a
// temporary file, not in memory.
#include <cstdio>
#include <map>
#include <vector>
#include <ostream>
#include <string>

#include "sim/result.h"

namespace hwsim {

// Takes each step as the run hands it out (a StepSink) and keeps its events' text in a temporary
// file until the trace is written.
// Per device (trace pid): when each of its collectives' lanes is free again.
using CollectiveLanes = std::map<int, std::vector<double>>;

class ChromeTraceStream : public StepSink {
 public:
  ChromeTraceStream();
  ~ChromeTraceStream() override;
  void add_step(const StepResult& step) override;
  void copy_to(std::ostream& out) const;

 private:
  std::FILE* spill_;
  double spilled_ = 0;     // bytes of events written (--max-output bounds them)
  double step_start_ = 0;  // steps run back to back
  CollectiveLanes lanes_;
  std::string buffer_;
};

// Writes {"displayTimeUnit": "ns", "traceEvents": [...]} (compact). The events of steps come
// from the records kept in r.steps, or from `stream` when it is given (it saw every step).
void write_kernel_timeline_trace(std::ostream& out, const RunResult& result, const ChromeTraceStream* stream = nullptr);

}  // namespace hwsim
