#include "viz/json_report.h"

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
          {"time_breakdown", breakdown_json(k.breakdown)}};
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
          {"arithmetic_intensity", r.arithmetic_intensity},
          {"ridge_point", r.ridge_point},
          {"bound", r.bound},
          {"bytes", {{"min", r.min_bytes}, {"l2", r.l2_bytes}, {"hbm", r.hbm_bytes}}},
          {"bandwidth", {{"l2", r.l2_bandwidth_achieved}, {"hbm", r.hbm_bandwidth_achieved},
                         {"hbm_peak", r.peak_hbm_bandwidth}}},
          {"time_breakdown", breakdown_json(r.breakdown)},
          {"steps", steps}};
}

nlohmann::json run_document(const Config& config, const Workload& workload, const RunResult& r) {
  return {{"hwsim", HWSIM_VERSION},
          {"chip", {{"name", config.text("name")}, {"file", config.chip_path()}}},
          {"workload", {{"spec", workload.spec}, {"kind", workload.kind}}},
          {"level", r.level},
          {"config", nlohmann::json::parse(config.resolved_json())},
          {"result", result_json(r)}};
}

}  // namespace hwsim
