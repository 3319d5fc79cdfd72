// Measurement kind serve_trace (data/measurements/h200_serving.jsonl, scripts/measure/serving/
// measure_serve_loop.py; data/public/vllm_serving.jsonl): a serving run's mean latency — TPOT,
// TTFT, ITL or end-to-end — over `requests` requests of `prompt` and `output` tokens all arriving
// at t = 0 (rate=inf) at one engine of `max_batch` running sequences (default 256):
// benchmark_serving at --max-concurrency = requests, one wave. `seconds` is the measured mean;
// `metric` names which. The prediction is the serve workload's result.serving.<metric>_s.mean, the
// engine's step overhead included (chip keys serving.step_overhead*: docs/calibration.md, "Serving
// engine steps on the H200"); `cuda_graphs` (optional) the engine's CUDA-graph capture sizes, else
// vLLM's. A serving run keeps no per-kernel records, so the run's document is the summary one.
#include <fmt/format.h>

#include <map>

#include "app/run_configs.h"
#include "run/simulate.h"
#include "sim/measurement/measurement.h"
#include "viz/json_report.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

std::optional<PredictionPlan> serve_trace_plan(const Measurement& m) {
  static const std::map<std::string, std::string> metrics = {
      {"tpot", "tpot_s"}, {"ttft", "ttft_s"}, {"itl", "itl_s"}, {"e2el", "e2e_s"}};
  auto model = record_word(m, "model"), metric = record_word(m, "metric");
  auto requests = record_whole(m, "requests", 1), prompt = record_whole(m, "prompt", 1);
  auto output = record_whole(m, "output", 1);
  if (!model || !metric || !requests || !prompt || !output) return std::nullopt;
  auto key = metrics.find(*metric);
  if (key == metrics.end()) return std::nullopt;
  std::string extra;
  if (auto layers = record_whole(m, "layers", 1)) extra += fmt::format(",layers={}", *layers);
  if (auto max_batch = record_whole(m, "max_batch", 1)) extra += fmt::format(",max_batch={}", *max_batch);
  // The engine's CUDA-graph capture sizes when they are not vLLM's ("1/2/4/..."; "off": eager).
  if (auto graphs = record_word(m, "cuda_graphs")) extra += fmt::format(",cuda_graphs={}", *graphs);
  PredictionPlan plan(fmt::format("serve:model={},requests={},rate=inf,prompt={},output={}{}", *model, *requests,
                                  *prompt, *output, extra),
                      [field = key->second](const nlohmann::json& d) {
                        return d["result"]["serving"][field]["mean"].get<double>();
                      });
  plan.family = *metric;
  plan.simulate = [spec = plan.workload](const std::string& chip, const std::vector<std::string>& overrides) {
    Workload workload = WorkloadCatalog::build(spec);
    RunConfigs configs = load_run_configs(chip, "", overrides);
    RunResult result = simulate(RunRequest{configs.chip, nullptr, workload});
    return run_document(configs.chip, workload, result, nullptr, JsonDetail::summary).dump();
  };
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("serve_trace",
                           "a serving run's mean TPOT, TTFT, ITL or E2E latency (requests arriving together)",
                           serve_trace_plan);

}  // namespace
}  // namespace hwsim
