#include "viz/serving_trace.h"

#include <fmt/format.h>

namespace hwsim {

namespace {

constexpr int kEnginesProcess = 1, kRequestsProcess = 2;

nlohmann::json event(const std::string& name, const char* category, int pid, std::int64_t tid, double start_s,
                     double duration_s, nlohmann::json args) {
  return {{"name", name}, {"cat", category}, {"ph", "X"},          {"pid", pid},
          {"tid", tid},   {"ts", start_s * 1e6}, {"dur", duration_s * 1e6}, {"args", std::move(args)}};
}

nlohmann::json metadata(const char* what, int pid, std::int64_t tid, const nlohmann::json& args) {
  nlohmann::json m = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", args}};
  if (tid >= 0) m["tid"] = tid;
  return m;
}

void engine_tracks(nlohmann::json& events, const ServingMetrics& m) {
  events.push_back(metadata("process_name", kEnginesProcess, -1, {{"name", "engines"}}));
  for (std::size_t i = 0; i < m.instances.size(); ++i)
    events.push_back(metadata("thread_name", kEnginesProcess, std::int64_t(i),
                              {{"name", fmt::format("{} {} steps", m.instances[i].role, i)}}));
  for (const ServingStep& s : m.steps) {
    std::string name = s.prefill_tokens > 0 ? fmt::format("{} decodes + {} prefill tokens", s.decodes, s.prefill_tokens)
                                            : fmt::format("{} decodes", s.decodes);
    events.push_back(event(name, "step", kEnginesProcess, s.instance, s.start, s.seconds,
                           {{"decodes", s.decodes}, {"prefill_tokens", s.prefill_tokens}, {"sequences", s.sequences},
                            {"waiting", s.waiting}, {"kv_blocks_used", s.kv_blocks_used}, {"reused", s.reused},
                            {"verified", s.verified}, {"accepted", s.accepted}}));
    if (s.swap_seconds > 0)
      events.push_back(event("swap", "swap", kEnginesProcess, s.instance, s.start, s.swap_seconds, nlohmann::json::object()));
    if (s.draft_seconds > 0)
      events.push_back(event("draft", "draft", kEnginesProcess, s.instance, s.start + s.swap_seconds, s.draft_seconds,
                             nlohmann::json::object()));
  }
}

void request_tracks(nlohmann::json& events, const ServingMetrics& m) {
  events.push_back(metadata("process_name", kRequestsProcess, -1, {{"name", "requests"}}));
  for (const ServedRequest& r : m.per_request) {
    std::int64_t tid = r.id;
    events.push_back(metadata("thread_name", kRequestsProcess, tid, {{"name", fmt::format("request {}", r.id)}}));
    events.push_back(metadata("thread_sort_index", kRequestsProcess, tid, {{"sort_index", r.id}}));
    for (const RequestPhase& p : r.phases)
      events.push_back(event(phase_name(p.kind), "request", kRequestsProcess, tid, p.start, p.end - p.start,
                             {{"instance", p.instance}, {"prompt", r.prompt}, {"output", r.output},
                              {"cached_tokens", r.cached_tokens}, {"priority", r.priority}}));
  }
}

}  // namespace

nlohmann::json serving_timeline_trace(const RunResult& r) {
  nlohmann::json events = nlohmann::json::array();
  engine_tracks(events, r.serving);
  request_tracks(events, r.serving);
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

}  // namespace hwsim
