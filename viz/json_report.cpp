#include "viz/json_report.h"

#include "sim/llm_metrics.h"

namespace hwsim {

namespace {
nlohmann::json breakdown_json(const TimeBreakdown& b) {
  return {{"math", b.math}, {"memory_wait", b.memory_wait}, {"overhead", b.overhead}, {"idle", b.idle}};
}
}  // namespace

nlohmann::json kernel_json(const KernelRecord& k) {
  return {{"name", k.name},
          {"op_class", k.op_class},
          {"config", k.config},
          {"dtype", k.dtype},
          {"start", k.start},
          {"end", k.end},
          {"launch", k.launch},
          {"seconds", k.seconds},
          {"flops", k.flops},
          {"bytes", {{"min", k.min_bytes}, {"l2", k.l2_bytes}, {"hbm", k.hbm_bytes}}},
          {"ctas", k.ctas},
          {"ctas_per_sm", k.ctas_per_sm},
          {"sms_used", k.sms_used},
          {"waves", k.waves},
          {"achieved_flop_rate", k.achieved_flop_rate},
          {"hbm_bandwidth", k.hbm_bandwidth_achieved},
          {"roofline_floor", k.roofline_floor},
          {"arithmetic_intensity", k.arithmetic_intensity},
          {"ridge_point", k.ridge_point},
          {"bound", k.bound},
          {"time_breakdown", breakdown_json(k.breakdown)},
          {"energy", k.energy}};
}

nlohmann::json result_json(const RunResult& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : r.steps) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : s.kernels) kernels.push_back(kernel_json(k));
    steps.push_back({{"label", s.label}, {"seconds", s.seconds}, {"kernels", kernels}});
  }
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
          {"bytes", {{"min", r.min_bytes}, {"l2", r.l2_bytes}, {"hbm", r.hbm_bytes}}},
          {"bandwidth", {{"l2", r.l2_bandwidth_achieved}, {"hbm", r.hbm_bandwidth_achieved},
                         {"hbm_peak", r.peak_hbm_bandwidth}}},
          {"time_breakdown", breakdown_json(r.breakdown)},
          {"energy", r.energy},
          {"average_power", r.average_power},
          {"tdp", r.tdp},
          {"above_tdp", r.above_tdp},
          {"steps", steps}};
}

namespace {
// result.llm of a language-model run (sim/llm_metrics.h, plus the workload's memory facts);
// null for workloads without tokens.
nlohmann::json llm_json(const Workload& workload, const RunResult& r) {
  LlmMetrics m = compute_llm_metrics(workload, r);
  if (!m.present) return nullptr;
  nlohmann::json by_class = nlohmann::json::object();
  for (const auto& [name, c] : m.by_class)
    by_class[name] = {{"seconds", c.seconds}, {"roofline_floor", c.roofline_floor}, {"kernels", c.kernels}};
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : m.steps)
    steps.push_back({{"label", s.label}, {"phase", s.phase}, {"tokens", s.tokens}, {"seconds", s.seconds},
                     {"tokens_per_second", s.tokens_per_second}, {"mbu", s.mbu}, {"mfu", s.mfu}});
  nlohmann::json by_operation = nlohmann::json::array();
  for (const auto& [name, op] : m.by_operation)
    by_operation.push_back({{"operation", name}, {"op_class", op.op_class}, {"seconds", op.seconds},
                            {"roofline_floor", op.roofline_floor}, {"times_floor", op.times_floor}, {"kernels", op.kernels}, {"bound", op.bound},
                            {"lowering", op.lowering}});
  nlohmann::json farthest = nlohmann::json::array();
  for (const auto& k : m.farthest_from_floor)
    farthest.push_back({{"step", k.step}, {"name", k.name}, {"op_class", k.op_class}, {"bound", k.bound},
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

nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r) {
  nlohmann::json result = result_json(r);
  if (nlohmann::json llm = llm_json(workload, r); !llm.is_null()) result["llm"] = std::move(llm);
  return {{"hwsim", HWSIM_VERSION},
          {"chip", {{"name", config.text("name")}, {"file", config.chip_path()}}},
          {"workload", {{"spec", workload.spec}, {"kind", workload.kind}}},
          {"level", r.level},
          {"config", nlohmann::json::parse(config.resolved_json())},
          {"result", result}};
}

}  // namespace hwsim
