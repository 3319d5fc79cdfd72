// Measurement kinds of the power campaign (data/measurements/README.md, "Fidelity, energy and
// classroom measurements"):
// - energy: NVML's energy counter around a loop of one case, joules per call. Predicted: the
//   energy of one call once the loop is in its steady state (the last of a few calls, each on
//   buffers of its own for a GEMM, on one buffer set for a stream, as the measurement ran them).
//   Families: gemm, hbm (streams past the L2), l2 (L2-resident streams), decode, prefill. Idle
//   cases (no calls) and the Triton L2 read loop (no workload of its shape) are skipped.
// - power_cap_run: an ~8 s loop under the 700 W cap; compared: the steady SM clock (hertz).
#include <fmt/format.h>

#include "sim/measurement/measurement.h"
#include "sim/measurement/record_fields.h"
#include "ops/dtype.h"

namespace hwsim {
namespace {

// Calls simulated for a loop's steady state: the governor's first update in a sustained run needs
// one call, its average a second; the third is the one compared.
constexpr int kSteadyCalls = 3;

double number(const nlohmann::json& r, const char* key) {
  return r.contains(key) && r[key].is_number() ? r[key].get<double>() : 0.0;
}

const nlohmann::json& last_kernel(const nlohmann::json& document) {
  return document["result"]["steps"].back()["kernels"].back();
}

// gemm:M,N,K,dtype (fp8_e4m3 is fp8) as kSteadyCalls calls; nullopt for a dtype hwsim lacks.
std::optional<std::string> gemm_spec(const nlohmann::json& r) {
  auto M = field_whole(r, "M"), N = field_whole(r, "N"), K = field_whole(r, "K");
  auto dtype = field_text(r, "dtype");
  if (!M || !N || !K || !dtype) return std::nullopt;
  std::string name = dtype->substr(0, dtype->find('_'));  // "fp8_e4m3" → "fp8"
  auto t = parse_dtype(name);
  if (!t) return std::nullopt;
  return fmt::format("gemm:M={},N={},K={},dtype={},repeat={}", *M, *N, *K, dtype_name(*t), kSteadyCalls);
}

// An LLM step of the record's model, batch and context (decode) or prompt (prefill).
std::optional<std::string> step_spec(const Measurement& m, const char* phase, const char* length) {
  const nlohmann::json& r = m.fields;
  auto model = record_word(m, "model");
  auto batch = field_whole(r, "batch"), tokens = field_whole(r, length);
  if (!model || !batch || !tokens) return std::nullopt;
  auto layers = field_whole(r, "layers");  // a record of a cut model (8 of 80 layers) says so
  return fmt::format("{}:model={},batch={},{}={}{}", phase, *model, *batch, length, *tokens,
                     layers ? fmt::format(",layers={}", *layers) : std::string());
}

PredictionPlan joules_plan(std::string spec, std::string family, bool whole_run) {
  PredictionPlan plan;
  plan.workload = std::move(spec);
  plan.family = std::move(family);
  plan.quantity = "joules";
  plan.measured = [](const Measurement& m) { return number(m.fields, "joules_per_call"); };
  plan.predicted_seconds = [whole_run](const nlohmann::json& d) {
    return whole_run ? d["result"]["energy"].get<double>() : last_kernel(d)["energy"].get<double>();
  };
  return plan;
}

std::optional<PredictionPlan> energy_plan(const Measurement& m) {
  const auto& r = m.fields;
  auto op = field_text(r, "op");
  if (!op || !(number(r, "joules_per_call") > 0)) return std::nullopt;
  if (*op == "gemm") {
    auto spec = gemm_spec(r);
    return spec ? std::optional(joules_plan(*spec, "gemm", false)) : std::nullopt;
  }
  if (*op == "decode_step" || *op == "prefill_step") {
    bool decode = *op == "decode_step";
    auto spec = decode ? step_spec(m, "decode", "context") : step_spec(m, "prefill", "prompt");
    return spec ? std::optional(joules_plan(*spec, decode ? "decode" : "prefill", true)) : std::nullopt;
  }
  static const std::map<std::string, std::string> streams = {
      {"read_sum_fp32", "read_sum"}, {"fill_fp32", "fill"}, {"copy", "copy"}};
  auto stream = streams.find(*op);
  auto bytes = field_whole(r, "bytes_each");
  if (stream == streams.end() || !bytes) return std::nullopt;
  bool resident = field_text(r, "resident").value_or("") == "L2";
  // fp32 elements, as the measurement's tensors: the read's sum adds one per 4 bytes. One call
  // more than the steady state needs: the run's end writes back what is dirty in L2 (the last
  // call waits for it), which a loop over one L2-resident buffer never pays; the call compared is
  // the one before.
  PredictionPlan plan = joules_plan(
      fmt::format("elementwise:op={},T=1,D={},dtype=fp32,repeat={}", stream->second, *bytes / 4, kSteadyCalls + 1),
      resident ? "l2" : "hbm", false);
  plan.predicted_seconds = [](const nlohmann::json& d) {
    return d["result"]["steps"].back()["kernels"][kSteadyCalls - 1]["energy"].get<double>();
  };
  return plan;
}

// power_cap_run: the steady clock (steady.avg_sm_clock_mhz) of a capped loop against the clock
// the governor holds in the last call.
std::optional<PredictionPlan> power_cap_plan(const Measurement& m) {
  const auto& r = m.fields;
  if (!r.contains("steady") || !r["steady"].is_object() || !(number(r["steady"], "avg_sm_clock_mhz") > 0))
    return std::nullopt;
  std::optional<std::string> spec;
  std::string family;
  if (r.contains("prompt")) spec = step_spec(m, "prefill", "prompt"), family = "prefill";
  else spec = gemm_spec(r), family = "gemm";
  if (!spec) return std::nullopt;
  PredictionPlan plan;
  plan.workload = *spec;
  plan.family = family;
  plan.quantity = "hertz";
  plan.measured = [](const Measurement& m) { return 1e6 * number(m.fields["steady"], "avg_sm_clock_mhz"); };
  bool whole_run = family == "prefill";
  plan.predicted_seconds = [whole_run](const nlohmann::json& d) {
    return whole_run ? d["result"]["power"]["average_clock"].get<double>() : last_kernel(d)["clock"].get<double>();
  };
  return plan;
}

HWSIM_REGISTER_MEASUREMENT("energy", "joules per call of a kernel, from NVML's energy counter (quantity: joules)", energy_plan);
HWSIM_REGISTER_MEASUREMENT("power_cap_run", "a long power-capped loop's SM clock (quantity: hertz)", power_cap_plan);

}  // namespace
}  // namespace hwsim
