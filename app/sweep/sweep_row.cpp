#include "app/sweep/sweep_row.h"

namespace hwsim {

const std::vector<std::string>& sweep_metric_columns() {
  static const std::vector<std::string> columns = {
      "seconds", "achieved_flop_rate", "peak_share", "memory_bandwidth", "times_floor", "bound", "energy",
      "average_power", "over_limit_joules", "average_clock", "throttled_share", "flops_per_joule", "tokens_per_second",
      "ttft", "tpot",
      "mbu", "mfu", "joules_per_token", "tokens_per_joule"};
  return columns;
}

bool serving_sweep(const SweepSpec& spec) {
  std::string name = spec.workload.substr(0, spec.workload.find(':'));
  return name == "serve";
}

const std::vector<std::string>& serving_metric_columns() {
  static const std::vector<std::string> columns = {"request_throughput", "request_goodput", "slo_attainment",
                                                   "ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "itl_p99",
                                                   "e2el_p50", "e2el_p99", "prefix_hit_rate"};
  return columns;
}

std::vector<std::string> plot_metric_columns(const SweepSpec& spec) {
  std::vector<std::string> c;
  for (const auto& m : sweep_metric_columns())
    if (m != "bound") c.push_back(m);
  if (serving_sweep(spec))
    for (const auto& m : serving_metric_columns()) c.push_back(m);
  return c;
}

namespace {
void add_serving(const ServingMetrics& s, nlohmann::ordered_json& m) {
  const bool slo = s.slo_ttft_s > 0 || s.slo_tpot_s > 0 || s.slo_e2el_s > 0;
  m["request_throughput"] = s.requests_per_s;
  m["request_goodput"] = slo ? nlohmann::ordered_json(s.request_goodput) : nlohmann::ordered_json();
  m["slo_attainment"] = slo ? nlohmann::ordered_json(s.slo_attainment) : nlohmann::ordered_json();
  m["ttft_p50"] = s.ttft_s.p50, m["ttft_p99"] = s.ttft_s.p99;
  m["tpot_p50"] = s.tpot_s.p50, m["tpot_p99"] = s.tpot_s.p99;
  m["itl_p99"] = s.itl_s.p99;
  m["e2el_p50"] = s.e2e_s.p50, m["e2el_p99"] = s.e2e_s.p99;
  m["prefix_hit_rate"] = s.prefix_caching ? nlohmann::ordered_json(s.prefix_hit_rate) : nlohmann::ordered_json();
}
}  // namespace

nlohmann::ordered_json run_metrics(const RunResult& r) {
  nlohmann::ordered_json m = {{"seconds", r.seconds},
                              {"achieved_flop_rate", r.achieved_flop_rate},
                              {"peak_share", r.percent_of_peak / 100},
                              {"memory_bandwidth", r.memory_bandwidth_achieved},
                              {"times_floor", r.times_floor},
                              {"bound", r.bound},
                              {"energy", r.energy},
                              {"average_power", r.average_power},
                              {"over_limit_joules", r.power.over_limit_joules},
                              {"average_clock", r.power.average_clock},
                              {"throttled_share", r.power.throttled_share},
                              {"flops_per_joule", r.power.flops_per_joule}};
  if (r.serving.present) {  // a serve run (its figures are the run's): output tokens/s, TTFT, TPOT
    m["tokens_per_second"] = r.serving.output_tokens_per_s;
    m["ttft"] = r.serving.ttft_s.mean;
    m["tpot"] = r.serving.tpot_s.mean;
    m["joules_per_token"] = r.serving.joules_per_output_token;
    m["tokens_per_joule"] = r.serving.output_tokens_per_joule;
    add_serving(r.serving, m);
  }
  if (r.llm.present) {
    m["tokens_per_second"] = r.llm.tokens_per_second;
    // A figure a run does not have is empty, not 0: a decode alone has no TTFT, a prefill no TPOT.
    m["ttft"] = r.llm.ttft > 0 ? nlohmann::ordered_json(r.llm.ttft) : nlohmann::ordered_json();
    m["tpot"] = r.llm.tpot > 0 ? nlohmann::ordered_json(r.llm.tpot) : nlohmann::ordered_json();
    m["mbu"] = r.llm.mbu;
    m["mfu"] = r.llm.mfu;
    m["joules_per_token"] = r.llm.joules_per_token;
    m["tokens_per_joule"] = r.llm.tokens_per_joule;
  }
  return m;
}

nlohmann::ordered_json sweep_row(const SweepSpec& spec, const SweepPoint& point, const nlohmann::ordered_json& metrics,
                                 const std::string& error) {
  nlohmann::ordered_json row = {{"index", point.index}};
  for (std::size_t k = 0; k < spec.axes.size(); ++k) row[spec.axes[k].key] = point.values[k];
  row["status"] = error.empty() ? "ok" : "error";
  if (!error.empty()) {
    row["error"] = error;
    return row;
  }
  for (const auto& [key, value] : metrics.items()) row[key] = value;
  return row;
}

}  // namespace hwsim
