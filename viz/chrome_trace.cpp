#include "viz/chrome_trace.h"

namespace hwsim {

namespace {
constexpr int kStepsTrack = 1, kKernelsTrack = 2;
nlohmann::json complete_event(const std::string& name, const std::string& category, int track, double start_s,
                              double duration_s, nlohmann::json args) {
  return {{"name", name}, {"cat", category}, {"ph", "X"},          {"pid", 1},
          {"tid", track}, {"ts", start_s * 1e6}, {"dur", duration_s * 1e6}, {"args", std::move(args)}};
}
nlohmann::json track_name(int track, const std::string& name) {
  return {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", track}, {"args", {{"name", name}}}};
}
}  // namespace

nlohmann::json kernel_timeline_trace(const RunResult& r) {
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", r.device_kind + " (" + r.level + " level)"}}}});
  events.push_back(track_name(kStepsTrack, "steps"));
  events.push_back(track_name(kKernelsTrack, r.unit + "s"));
  double step_start = 0;  // steps run back to back
  for (const auto& step : r.steps) {
    events.push_back(complete_event(step.label, "step", kStepsTrack, step_start, step.seconds,
                                    {{"records", step.records.size()}}));
    for (const auto& k : step.records) {
      double start = step_start + k.start;
      if (k.launch > 0) events.push_back(complete_event("launch", "launch", kKernelsTrack, start, k.launch, nlohmann::json::object()));
      nlohmann::json args = {{"lowering", k.config}, {"bound", k.bound}, {"flops", k.flops},
                             {"roofline_floor_us", k.roofline_floor * 1e6}};
      for (std::size_t i = 0; i < k.traffic.size(); ++i) args[k.schema->levels[i] + "_bytes"] = k.traffic[i];
      for (std::size_t i = 0; i < k.details.size(); ++i) args[k.schema->details[i].key] = k.details[i];
      events.push_back(complete_event(k.name, k.op_class, kKernelsTrack, start + k.launch, k.seconds - k.launch,
                                      std::move(args)));
    }
    step_start += step.seconds;
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace hwsim
