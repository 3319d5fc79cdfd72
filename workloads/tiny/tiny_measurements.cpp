// Measurement kind "mlperf_tiny": one MLPerf Tiny benchmark's inference latency on a microcontroller
// board (data/public/mlperf_tiny.jsonl; scripts/make_public_mlperf_tiny_records.py). The record's
// `benchmark` names the reference model (kws, vww, ic, ad); `seconds` is 1 / the median throughput
// the EEMBC runner measured. The prediction is the run's latency of one inference. One family for all
// four benchmarks: the kind's MAPE (and --max-mape) is over the board's records together.
#include <fmt/format.h>

#include "sim/error.h"
#include "sim/measurement/measurement.h"

namespace hwsim {
namespace {

// The MLPerf Tiny benchmark names and the workloads that build their reference models.
std::optional<std::string> tiny_workload_of(const std::string& benchmark) {
  if (benchmark == "kws") return "kws_dscnn";
  if (benchmark == "vww") return "vww_mobilenet";
  if (benchmark == "ic") return "ic_resnet8";
  if (benchmark == "ad") return "ad_fc_autoencoder";
  return std::nullopt;
}

std::optional<PredictionPlan> mlperf_tiny_plan(const Measurement& m) {
  auto benchmark = record_word(m, "benchmark");
  if (!benchmark) return std::nullopt;
  auto workload = tiny_workload_of(*benchmark);
  if (!workload)
    io_error(fmt::format("{}:{}: benchmark: '{}' is not an MLPerf Tiny benchmark (kws, vww, ic, ad)", m.file, m.line,
                         *benchmark));
  PredictionPlan plan(*workload, [](const nlohmann::json& document) {
    return document["result"]["inference"]["latency"].get<double>();
  });
  plan.device_kind = "mcu";
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("mlperf_tiny", "an MLPerf Tiny inference latency (benchmark = kws, vww, ic, ad) on a "
                           "microcontroller: 1 / the EEMBC runner's median throughput", mlperf_tiny_plan);

}  // namespace
}  // namespace hwsim
