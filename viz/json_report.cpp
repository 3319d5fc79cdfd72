#include "viz/json_report.h"

#include "viz/inference_report.h"
#include "viz/serving_report.h"
#include "viz/system_report.h"

#include <cmath>
#include <cstdint>

namespace hwsim {

namespace {
// Old names (math, memory_wait) kept beside the generic ones: scripts rely on them.
nlohmann::json breakdown_json(const TimeBreakdown& b) {
  return {{"compute", b.compute},   {"memory", b.memory}, {"communication", b.communication},
          {"overhead", b.overhead}, {"idle", b.idle},     {"math", b.compute},
          {"memory_wait", b.memory}};
}

// A whole number stays an integer in JSON (counts such as ctas), anything else a float.
nlohmann::json number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) return std::int64_t(v);
  return v;
}

nlohmann::json details_json(const std::vector<Detail>& details) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& d : details) out[d.key] = number(d.value);
  return out;
}

// A record's details by name (its device's schema).
nlohmann::json details_json(const WorkRecord& k) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < k.details.size(); ++i) out[k.schema->details[i].key] = number(k.details[i]);
  return out;
}

// {"min": ..., "<level>": bytes ...} near → far.
nlohmann::json bytes_json(double min_bytes, const std::vector<LevelTraffic>& traffic) {
  nlohmann::json out = {{"min", min_bytes}};
  for (const auto& t : traffic) out[t.level] = t.bytes;
  return out;
}

nlohmann::json bytes_json(const WorkRecord& k) {
  nlohmann::json out = {{"min", k.min_bytes}};
  for (std::size_t i = 0; i < k.traffic.size(); ++i) out[k.schema->levels[i]] = k.traffic[i];
  return out;
}

std::string main_level(const std::vector<LevelTraffic>& traffic) {
  return traffic.empty() ? std::string("memory") : traffic.back().level;
}

std::string main_level(const WorkRecord& k) {
  return k.traffic.empty() ? std::string("memory") : k.schema->levels[k.traffic.size() - 1];
}
}  // namespace

// One record. Kind-specific details appear both under "details" and as top-level fields (the
// GPU's ctas, ctas_per_sm, sms_used and waves have always been there).
nlohmann::json kernel_json(const WorkRecord& k) {
  nlohmann::json j = {{"name", k.name},
                      {"op_class", k.op_class},
                      {"config", k.config},
                      {"dtype", k.dtype},
                      {"start", k.start},
                      {"end", k.end},
                      {"launch", k.launch},
                      {"seconds", k.seconds},
                      {"flops", k.flops},
                      {"bytes", bytes_json(k)},
                      {"achieved_flop_rate", k.achieved_flop_rate},
                      {main_level(k) + "_bandwidth", k.memory_bandwidth_achieved},
                      {"roofline_floor", k.roofline_floor},
                      {"arithmetic_intensity", k.arithmetic_intensity},
                      {"ridge_point", k.ridge_point},
                      {"bound", k.bound},
                      {"time_breakdown", breakdown_json(k.breakdown)},
                      {"energy", k.energy},
                      {"details", details_json(k)}};
  if (k.device != 0 || k.hidden != 0) j["device"] = k.device, j["hidden"] = k.hidden;  // system runs
  for (auto& [key, value] : j["details"].items()) j[key] = value;
  return j;
}

nlohmann::json result_json(const RunResult& r, JsonDetail detail) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : r.steps) {
    if (detail == JsonDetail::summary) {
      steps.push_back({{"label", s.label}, {"seconds", s.seconds}, {"records", s.records.size()}});
      continue;
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : s.records) kernels.push_back(kernel_json(k));
    steps.push_back({{"label", s.label}, {"seconds", s.seconds}, {"kernels", kernels}});
  }
  nlohmann::json bandwidth = nlohmann::json::object();
  for (std::size_t i = 0; i < r.traffic.size() && i < r.bandwidth.size(); ++i) bandwidth[r.traffic[i].level] = r.bandwidth[i];
  bandwidth[main_level(r.traffic) + "_peak"] = r.peak_memory_bandwidth;
  nlohmann::json bandwidth_peak = nlohmann::json::object();  // the chip's figure per memory level
  for (std::size_t i = 0; i < r.memory_levels.size() && i < r.memory_level_bandwidth.size(); ++i)
    bandwidth_peak[r.memory_levels[i]] = r.memory_level_bandwidth[i];
  return {{"seconds", r.seconds},
          {"flops", r.flops},
          {"achieved_flop_rate", r.achieved_flop_rate},
          {"peak_flop_rate", r.peak_flop_rate},
          {"percent_of_peak", r.percent_of_peak},
          {"roofline_floor", r.roofline_floor},
          {"times_floor", r.times_floor},
          {"arithmetic_intensity", r.arithmetic_intensity},
          {"ridge_point", r.ridge_point},
          {"bound", r.bound},
          {"bytes", bytes_json(r.min_bytes, r.traffic)},
          {"bandwidth", bandwidth},
          {"bandwidth_peak", bandwidth_peak},
          {"time_breakdown", breakdown_json(r.breakdown)},
          {"details", details_json(r.details)},
          {"energy", r.energy},
          {"average_power", r.average_power},
          {"tdp", r.tdp},
          {"above_tdp", r.above_tdp},
          {"steps", steps}};
}

namespace {
// result.llm of a language-model run (RunResult::llm, plus the workload's memory facts); null for
// workloads without tokens.
nlohmann::json llm_json(const Workload& workload, const RunResult& r) {
  const LlmMetrics& m = r.llm;
  if (!m.present) return nullptr;
  nlohmann::json by_class = nlohmann::json::object();
  for (const auto& [name, c] : m.by_class)
    by_class[name] = {{"seconds", c.seconds}, {"roofline_floor", c.roofline_floor}, {"kernels", c.records}};
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : m.steps)
    steps.push_back({{"label", s.label}, {"phase", s.phase}, {"tokens", s.tokens}, {"seconds", s.seconds},
                     {"tokens_per_second", s.tokens_per_second}, {"mbu", s.mbu}, {"mfu", s.mfu}});
  nlohmann::json by_operation = nlohmann::json::array();
  for (const auto& [name, op] : m.by_operation)
    by_operation.push_back({{"operation", name}, {"op_class", op.op_class}, {"seconds", op.seconds},
                            {"roofline_floor", op.roofline_floor}, {"times_floor", op.times_floor}, {"kernels", op.records}, {"bound", op.bound},
                            {"lowering", op.lowering}});
  nlohmann::json farthest = nlohmann::json::array();
  for (const auto& k : m.farthest_from_floor)
    farthest.push_back({{"operation", k.operation}, {"kernels", k.records}, {"step", k.step}, {"name", k.name},
                        {"op_class", k.op_class}, {"bound", k.bound},
                        {"seconds", k.seconds}, {"roofline_floor", k.roofline_floor}, {"excess", k.excess},
                        {"ratio", k.ratio}});
  nlohmann::json doc = {{"tokens", m.tokens},
                        {"seconds", m.seconds},
                        {"tokens_per_second", m.tokens_per_second},
                        {"ttft", m.ttft},
                        {"tpot", m.tpot},
                        {"decode_tokens_per_second", m.decode_tokens_per_second},
                        {"mbu", m.mbu},
                        {"mfu", m.mfu},
                        {"hfu", m.hfu},
                        {"joules_per_token", m.joules_per_token},
                        {"time_by_class", by_class},
                        {"time_by_operation", by_operation},
                        {"steps", steps},
                        {"farthest_from_floor", farthest}};
  if (workload.llm) {
    const LlmFacts& f = *workload.llm;
    doc["memory"] = {{"model", f.model}, {"phase", f.phase}, {"batch", f.batch}, {"context", f.context},
                     {"step_tokens", f.step_tokens}, {"max_context", f.max_context}, {"window", f.window},
                     {"weight_bytes", f.weight_bytes}, {"kv_bytes", f.kv_bytes},
                     {"activation_bytes", f.activation_bytes}, {"total_bytes", f.total_bytes()},
                     {"kv_bytes_per_token", f.kv_bytes_per_token},
                     {"activation_bytes_per_token", f.activation_bytes_per_token},
                     {"activation_bytes_per_sequence", f.activation_bytes_per_sequence}};
  }
  return doc;
}
}  // namespace

nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r,
                            const Config* system, JsonDetail detail) {
  nlohmann::json result = result_json(r, detail);
  if (nlohmann::json llm = llm_json(workload, r); !llm.is_null()) result["llm"] = std::move(llm);
  if (nlohmann::json sys = system_json(r); !sys.is_null()) result["system"] = std::move(sys);
  if (nlohmann::json inf = inference_json(r); !inf.is_null()) result["inference"] = std::move(inf);
  if (nlohmann::json sv = serving_json(r); !sv.is_null()) result["serving"] = std::move(sv);
  if (nlohmann::json coll = collective_json(r); !coll.is_null()) result["collective"] = std::move(coll);
  nlohmann::json doc = {{"hwsim", HWSIM_VERSION},
          {"schema_version", kResultSchemaVersion},
          {"chip", {{"name", config.text("name")}, {"file", config.chip_path()}}},
          {"workload", {{"spec", workload.spec}, {"kind", workload.kind}}},
          {"level", r.level},
          {"device", {{"kind", r.device_kind}, {"unit", r.unit}, {"memory_levels", r.memory_levels}}},
          {"config", nlohmann::json::parse(config.resolved_json())},
          {"result", result}};
  if (system)
    doc["system"] = {{"name", system->text("name")}, {"file", system->chip_path()},
                     {"config", nlohmann::json::parse(system->resolved_json())}};
  if (detail == JsonDetail::summary) doc["detail"] = "summary";
  return doc;
}

}  // namespace hwsim
