#include "viz/chrome_trace.h"

#include <algorithm>

namespace hwsim {

namespace {
constexpr int kStepsTrack = 1, kKernelsTrack = 2, kLinksTrack = 3;
nlohmann::json complete_event(const std::string& name, const std::string& category, int pid, int track, double start_s,
                              double duration_s, nlohmann::json args) {
  return {{"name", name}, {"cat", category}, {"ph", "X"},          {"pid", pid},
          {"tid", track}, {"ts", start_s * 1e6}, {"dur", duration_s * 1e6}, {"args", std::move(args)}};
}
nlohmann::json track_name(int pid, int track, const std::string& name) {
  return {{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", track}, {"args", {{"name", name}}}};
}
// A collective's record: no memory levels, its bytes crossed links (models/cluster/collective_engine.h).
bool on_links(const WorkRecord& k) { return k.schema && k.schema->levels.empty(); }

// One process per simulated device (a system's pipeline stages), each with a track of its kernels
// and one of the collectives it took part in (its links busy).
void name_devices(nlohmann::json& events, const RunResult& r) {
  std::size_t devices = 1;
  for (const auto& step : r.steps)
    for (const auto& k : step.records) devices = std::max(devices, std::size_t(k.device) + 1);
  for (std::size_t d = 0; d < devices; ++d) {
    int pid = int(d) + 1;
    std::string name = r.device_kind + " (" + r.level + " level)";
    if (r.system.present && d < r.system.stages.size()) name = r.system.name + " " + r.system.stages[d].label;
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}});
    events.push_back(track_name(pid, kKernelsTrack, r.unit + "s"));
    if (r.system.present) events.push_back(track_name(pid, kLinksTrack, "collectives (links)"));
  }
  events.push_back(track_name(1, kStepsTrack, "steps"));
}
}  // namespace

nlohmann::json kernel_timeline_trace(const RunResult& r) {
  nlohmann::json events = nlohmann::json::array();
  name_devices(events, r);
  double step_start = 0;  // steps run back to back
  for (const auto& step : r.steps) {
    events.push_back(complete_event(step.label, "step", 1, kStepsTrack, step_start, step.seconds,
                                    {{"records", step.records.size()}}));
    for (const auto& k : step.records) {
      double start = step_start + k.start;
      int pid = k.device + 1, track = on_links(k) ? kLinksTrack : kKernelsTrack;
      if (k.launch > 0) events.push_back(complete_event("launch", "launch", pid, track, start, k.launch, nlohmann::json::object()));
      nlohmann::json args = {{"lowering", k.config}, {"bound", k.bound}, {"flops", k.flops},
                             {"roofline_floor_us", k.roofline_floor * 1e6}};
      for (std::size_t i = 0; i < k.traffic.size(); ++i) args[k.schema->levels[i] + "_bytes"] = k.traffic[i];
      for (std::size_t i = 0; i < k.details.size(); ++i) args[k.schema->details[i].key] = k.details[i];
      events.push_back(complete_event(k.name, k.op_class, pid, track, start + k.launch, k.seconds - k.launch,
                                      std::move(args)));
    }
    step_start += step.seconds;
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace hwsim
