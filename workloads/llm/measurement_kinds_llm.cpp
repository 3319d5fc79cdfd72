// Measurement kinds of data/measurements/h100_llm.jsonl (README.md there) as workload specs:
// decode_step, prefill_step and attention. Records of these kinds with missing or ill-typed
// fields are skipped (nullopt), like the gemm adapter's.
#include <fmt/format.h>

#include "app/validate/measurement.h"
#include "ops/dtype.h"

namespace hwsim {
namespace {

std::optional<std::int64_t> whole(const nlohmann::json& r, const char* key) {
  if (!r.contains(key) || !r[key].is_number_integer()) return std::nullopt;
  return r[key].get<std::int64_t>();
}

// A plan that simulates `spec` and reads result.seconds.
PredictionPlan plan_for(std::string spec) {
  PredictionPlan plan;
  plan.workload = std::move(spec);
  return plan;
}

std::optional<std::string> text(const nlohmann::json& r, const char* key) {
  if (!r.contains(key) || !r[key].is_string()) return std::nullopt;
  return r[key].get<std::string>();
}

// A dtype field, bf16 when absent; nullopt when present but unknown.
std::optional<std::string> dtype_or_bf16(const nlohmann::json& r, const char* key) {
  auto s = text(r, key);
  if (!s) return r.contains(key) ? std::nullopt : std::optional<std::string>("bf16");
  auto t = parse_dtype(*s);
  if (!t) return std::nullopt;
  return std::string(dtype_name(*t));
}

// decode_step (`context` tokens cached) and prefill_step (`prompt` tokens, causal): one step of
// `layers` layers (the 70B records keep 8 of 80: layers=8), spelled as the phase's spec.
std::optional<PredictionPlan> step_plan(const Measurement& m, const char* phase, const char* length) {
  auto model = text(m.fields, "model");
  auto batch = whole(m.fields, "batch"), tokens = whole(m.fields, length), layers = whole(m.fields, "layers");
  auto weights = dtype_or_bf16(m.fields, "weights"), kv = dtype_or_bf16(m.fields, "kv");
  if (!model || !batch || !tokens || !layers || !weights || !kv) return std::nullopt;
  return plan_for(fmt::format("{}:model={},batch={},{}={},layers={},weights={},kv={}", phase, *model, *batch, length,
                              *tokens, *layers, *weights, *kv));
}

std::optional<PredictionPlan> decode_step_plan(const Measurement& m) { return step_plan(m, "decode", "context"); }
std::optional<PredictionPlan> prefill_step_plan(const Measurement& m) { return step_plan(m, "prefill", "prompt"); }

// attention: one SDPA call. The measured causal cases have q_len = kv_len, where top-left and
// bottom-right alignment of the mask agree.
std::optional<PredictionPlan> attention_plan(const Measurement& m) {
  auto batch = whole(m.fields, "batch"), heads = whole(m.fields, "heads"), kv_heads = whole(m.fields, "kv_heads");
  auto head_dim = whole(m.fields, "head_dim"), q_len = whole(m.fields, "q_len"), kv_len = whole(m.fields, "kv_len");
  auto dtype = dtype_or_bf16(m.fields, "dtype");
  if (!batch || !heads || !kv_heads || !head_dim || !q_len || !kv_len || !dtype) return std::nullopt;
  if (!m.fields.contains("causal") || !m.fields["causal"].is_boolean()) return std::nullopt;
  bool causal = m.fields["causal"].get<bool>();
  return plan_for(fmt::format("attention:batch={},heads={},kv_heads={},head_dim={},q_len={},kv_len={},causal={},"
                              "dtype={}",
                              *batch, *heads, *kv_heads, *head_dim, *q_len, *kv_len, causal, *dtype));
}

HWSIM_REGISTER_MEASUREMENT("decode_step", decode_step_plan);
HWSIM_REGISTER_MEASUREMENT("prefill_step", prefill_step_plan);
HWSIM_REGISTER_MEASUREMENT("attention", attention_plan);

}  // namespace
}  // namespace hwsim
