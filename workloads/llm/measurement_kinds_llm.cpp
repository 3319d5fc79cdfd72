// Measurement kinds of data/measurements/h100_llm.jsonl (README.md there) as workload specs:
// decode_step, prefill_step and attention. Records of these kinds with missing fields are
// skipped (nullopt), like the gemm adapter's; an ill-typed field is an error naming its line.
#include <fmt/format.h>

#include "sim/measurement/measurement.h"
#include "ops/dtype.h"

namespace hwsim {
namespace {

std::optional<std::int64_t> whole(const Measurement& m, const char* key) { return record_whole(m, key); }

// A plan that simulates `spec` and reads result.seconds.
PredictionPlan plan_for(std::string spec) {
  PredictionPlan plan;
  plan.workload = std::move(spec);
  return plan;
}

std::optional<std::string> text(const Measurement& m, const char* key) { return record_text(m, key); }

// A dtype field, bf16 when absent; nullopt when present but unknown.
std::optional<std::string> dtype_or_bf16(const Measurement& m, const char* key) {
  auto s = text(m, key);
  if (!s) return std::optional<std::string>("bf16");
  auto t = parse_dtype(*s);
  if (!t) return std::nullopt;
  return std::string(dtype_name(*t));
}

// decode_step (`context` tokens cached) and prefill_step (`prompt` tokens, causal): one step of
// `layers` layers (the 70B records keep 8 of 80: layers=8), spelled as the phase's spec.
std::optional<PredictionPlan> step_plan(const Measurement& m, const char* phase, const char* length) {
  auto model = record_word(m, "model");
  auto batch = whole(m, "batch"), tokens = whole(m, length), layers = whole(m, "layers");
  auto weights = dtype_or_bf16(m, "weights"), kv = dtype_or_bf16(m, "kv");
  if (!model || !batch || !tokens || !layers || !weights || !kv) return std::nullopt;
  return plan_for(fmt::format("{}:model={},batch={},{}={},layers={},weights={},kv={}", phase, *model, *batch, length,
                              *tokens, *layers, *weights, *kv));
}

std::optional<PredictionPlan> decode_step_plan(const Measurement& m) { return step_plan(m, "decode", "context"); }
std::optional<PredictionPlan> prefill_step_plan(const Measurement& m) { return step_plan(m, "prefill", "prompt"); }

// attention: one SDPA call. The measured causal cases have q_len = kv_len, where top-left and
// bottom-right alignment of the mask agree.
std::optional<PredictionPlan> attention_plan(const Measurement& m) {
  auto batch = whole(m, "batch"), heads = whole(m, "heads"), kv_heads = whole(m, "kv_heads");
  auto head_dim = whole(m, "head_dim"), q_len = whole(m, "q_len"), kv_len = whole(m, "kv_len");
  auto dtype = dtype_or_bf16(m, "dtype");
  if (!batch || !heads || !kv_heads || !head_dim || !q_len || !kv_len || !dtype) return std::nullopt;
  auto causal_field = record_flag(m, "causal");
  if (!causal_field) return std::nullopt;
  bool causal = *causal_field;
  return plan_for(fmt::format("attention:batch={},heads={},kv_heads={},head_dim={},q_len={},kv_len={},causal={},"
                              "dtype={}",
                              *batch, *heads, *kv_heads, *head_dim, *q_len, *kv_len, causal, *dtype));
}

HWSIM_REGISTER_MEASUREMENT("decode_step", "one decode step of a language model (model, batch, context)", decode_step_plan);
HWSIM_REGISTER_MEASUREMENT("prefill_step", "one prefill step of a language model (model, batch, prompt)", prefill_step_plan);
HWSIM_REGISTER_MEASUREMENT("attention", "one attention over a KV cache (decode or prefill shapes)", attention_plan);

}  // namespace
}  // namespace hwsim
