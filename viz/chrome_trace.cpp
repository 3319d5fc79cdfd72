#include "viz/chrome_trace.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sim/output_budget.h"
#include "sim/error.h"
#include "viz/json_text.h"

namespace hwsim {

namespace {
constexpr int kStepsTrack = 1, kKernelsTrack = 2, kLinksTrack = 3;

// A complete ("X") event; `args` is filled by the caller before write().
struct Event {
  JsonObjectText object{-1, 0};
  JsonObjectText* args = nullptr;
  void reset(std::string_view name, std::string_view category, int pid, int track, double start_s, double duration_s) {
    object.reset(0);
    object.add_string("name", name);
    object.add_string("cat", category);
    object.add_string("ph", "X");
    object.add_integer("pid", pid);
    object.add_integer("tid", track);
    object.add_float("ts", start_s * 1e6);
    object.add_float("dur", duration_s * 1e6);
    args = &object.add_object("args");
  }
};

// A collective's record: no memory levels, its bytes crossed links (models/cluster/collective_engine.h).
bool on_links(const WorkRecord& k) { return k.schema && k.schema->levels.empty(); }

nlohmann::json track_name(int pid, int track, const std::string& name);

// The collectives' lanes of one device: a collective goes on the first lane free when it starts,
// so collectives that overlap (an asynchronous one beside a pipeline send) never overlap on a track.
int links_track(CollectiveLanes& lanes, std::string& out, int pid, double start, double end) {
  auto& ends = lanes[pid];
  std::size_t lane = 0;
  while (lane < ends.size() && ends[lane] > start) ++lane;
  if (lane == ends.size()) {
    ends.push_back(end);
    if (lane > 0) out += "," + track_name(pid, kLinksTrack + 100 + int(lane), fmt::format("collectives (links) {}", lane + 1)).dump();
  } else {
    ends[lane] = end;
  }
  return lane == 0 ? kLinksTrack : kLinksTrack + 100 + int(lane);
}

// A step's events, each preceded by a comma (they follow the devices' names in the array).
void append_step_events(std::string& out, const StepResult& step, double step_start, CollectiveLanes& lanes) {
  thread_local Event e;
  e.reset(step.label, "step", 1, kStepsTrack, step_start, step.seconds);
  e.args->add_integer("records", std::int64_t(step.record_count));
  out += ',';
  e.object.write(out);
  for (const auto& k : step.records) {
    double start = step_start + k.start;
    int pid = k.device + 1;
    int track = on_links(k) ? links_track(lanes, out, pid, start, step_start + k.end) : kKernelsTrack;
    if (k.launch > 0) {
      e.reset("launch", "launch", pid, track, start, k.launch);
      out += ',';
      e.object.write(out);
    }
    e.reset(k.name, k.op_class, pid, track, start + k.launch, k.seconds - k.launch);
    e.args->add_string("lowering", k.config);
    e.args->add_string("bound", k.bound);
    e.args->add_float("flops", k.flops);
    e.args->add_float("roofline_floor_us", k.roofline_floor * 1e6);
    for (std::size_t i = 0; i < k.traffic.size(); ++i) e.args->add_float(e.args->keep(k.schema->levels[i] + "_bytes"), k.traffic[i]);
    for (std::size_t i = 0; i < k.details.size(); ++i) e.args->add_float(k.schema->details[i].key, k.details[i]);
    out += ',';
    e.object.write(out);
  }
}

nlohmann::json track_name(int pid, int track, const std::string& name) {
  return {{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", track}, {"args", {{"name", name}}}};
}

// One process per simulated device (a system's pipeline stages), each with a track of its kernels
// and one of the collectives it took part in (its links busy).
nlohmann::json device_names(const RunResult& r) {
  nlohmann::json events = nlohmann::json::array();
  std::size_t devices = r.system.present ? std::max<std::size_t>(1, r.system.stages.size()) : 1;
  for (std::size_t d = 0; d < devices; ++d) {
    int pid = int(d) + 1;
    std::string name = r.device_kind + " (" + r.level + " level)";
    if (r.system.present && d < r.system.stages.size()) name = r.system.name + " " + r.system.stages[d].label;
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}});
    events.push_back(track_name(pid, kKernelsTrack, r.unit + "s"));
    if (r.system.present) events.push_back(track_name(pid, kLinksTrack, "collectives (links)"));
  }
  events.push_back(track_name(1, kStepsTrack, "steps"));
  return events;
}
}  // namespace

ChromeTraceStream::ChromeTraceStream() : spill_(std::tmpfile()) {
  if (!spill_) io_error("cannot create a temporary file for the trace's events");
}

ChromeTraceStream::~ChromeTraceStream() { std::fclose(spill_); }

void ChromeTraceStream::add_step(const StepResult& step) {
  buffer_.clear();
  append_step_events(buffer_, step, step_start_, lanes_);
  step_start_ += step.seconds;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), spill_) != buffer_.size())
    io_error("cannot write the trace's events to a temporary file (disk full?)");
  spilled_ += double(buffer_.size());
  require_output(spilled_, "the trace's events (--trace)", "fewer steps, or no --trace");
}

void ChromeTraceStream::copy_to(std::ostream& out) const {
  std::fflush(spill_);
  std::rewind(spill_);
  char chunk[1 << 16];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, spill_)) > 0;) out.write(chunk, std::streamsize(n));
  std::fseek(spill_, 0, SEEK_END);
}

void write_kernel_timeline_trace(std::ostream& out, const RunResult& r, const ChromeTraceStream* stream) {
  std::string header = device_names(r).dump();  // "[...]": the array is continued below
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":";
  out.write(header.data(), std::streamsize(header.size() - 1));
  if (stream) {
    stream->copy_to(out);
  } else {
    std::string events;
    CollectiveLanes lanes;
    double step_start = 0;  // steps run back to back
    for (const auto& step : r.steps) {
      if (step.records.size() != step.record_count)
        throw std::logic_error("trace: the run kept no records of step '" + step.label + "' and streamed none");
      append_step_events(events, step, step_start, lanes);
      step_start += step.seconds;
    }
    out << events;
  }
  out << "]}";
}

}  // namespace hwsim
