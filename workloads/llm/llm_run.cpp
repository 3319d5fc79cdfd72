#include "workloads/llm/llm_run.h"

#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "workloads/llm/parallel_layout.h"
#include "workloads/passes/framework_pass.h"
#include "workloads/spec.h"

namespace hwsim {

AttentionImpl parse_attention_impl_field(const WorkloadSpec& spec, const std::string& key) {
  std::string name = spec.word(key, "auto");
  auto impl = parse_attention_impl(name);
  if (!impl) {
    std::vector<std::string> valid = attention_impl_names();
    valid.insert(valid.begin(), "auto");
    workload_error(fmt::format("workload '{}': {}: '{}' is not an attention implementation; valid: {}{}", spec.text(),
                               key, name, join(valid), did_you_mean(name, valid)));
  }
  return *impl;
}

Dequant parse_dequant_field(const WorkloadSpec& spec, const std::string& key) {
  std::string name = spec.word(key, "fused");
  if (name == "fused") return Dequant::fused;
  if (name == "separate") return Dequant::separate;
  if (name == "eager") return Dequant::eager;
  workload_error(fmt::format("workload '{}': {}: '{}' is not a dequantisation; valid: fused (one kernel unpacks the "
                             "weights in registers), separate (a dequantisation kernel, then a 16-bit GEMM), eager "
                             "(int8/fp8: cast and scale as two framework ops, then the GEMM){}",
                             spec.text(), key, name, did_you_mean(name, {"fused", "separate", "eager"})));
}

std::vector<std::string> llm_phase_fields(const std::string& phase) {
  std::vector<std::string> fields = {"model", "batch"};
  if (phase == "decode") fields.push_back("context");
  if (phase == "prefill" || phase == "generate") fields.push_back("prompt");
  if (phase == "generate") fields.push_back("output");
  for (const char* d : {"weights", "act", "kv", "kernels", "dequant", "attention", "strict"}) fields.push_back(d);
  for (const auto& f : parallel_fields()) fields.push_back(f);
  return fields;
}

LlmRun parse_llm_run(const WorkloadSpec& spec, const std::string& phase, std::vector<std::string>* warnings) {
  auto fail = [&](const std::string& what) { workload_error(fmt::format("workload '{}': {}", spec.text(), what)); };
  LlmRun run;
  run.phase = phase;
  run.arch = spec_architecture(spec);
  run.batch = spec.positive_int("batch", 1);
  if (phase == "decode") run.context = spec.non_negative_int("context", -1);
  if (phase == "decode" && run.context < 0) spec.missing("context", "tokens already cached per sequence");
  if (phase == "prefill" || phase == "generate") run.prompt = spec.positive_int("prompt");
  // One decode step per output token, each simulated: bounded so a generate ends (a serving
  // study of more tokens is `serve:`, which reuses steps of one shape).
  constexpr std::int64_t kMaxOutputTokens = 32768;
  if (phase == "generate") run.output = spec.positive_int("output", 0, kMaxOutputTokens);
  if (phase == "generate" && run.output < 1) spec.missing("output", "a whole number >= 1");

  run.dtypes.weights = spec.dtype("weights", DType::bf16);
  run.dtypes.act = spec.dtype("act", DType::bf16);
  run.dtypes.kv = spec.dtype("kv", run.dtypes.act);
  if (run.dtypes.act == DType::int4) fail("act: int4 is weight-only (use weights=int4)");
  if (run.dtypes.kv == DType::int4) fail("kv: int4 is weight-only (use kv=fp8 or int8)");
  run.dtypes.dequant = parse_dequant_field(spec, "dequant");
  run.dtypes.attention = parse_attention_impl_field(spec, "attention");
  bool strict = spec.boolean("strict", false);
  run.framework = spec.word("kernels", "");
  std::vector<std::string> frameworks = FrameworkPasses::names();
  if (!run.framework.empty() && !FrameworkPasses::entries().count(run.framework))
    fail(fmt::format("kernels: '{}' is not one of {} (default: the device's){}", run.framework, join(frameworks),
                     did_you_mean(run.framework, frameworks)));
  run.parallel = parse_parallelism(spec);

  std::vector<std::string> valid = llm_phase_fields(phase);
  for (const auto& f : architecture_fields()) valid.push_back(f);
  spec.reject_unused(valid);

  // Tokens a sequence holds: decode checks the cached context (its one new token may sit at
  // position max_context, as the H100 measurements at context 8192 do); generate its final length.
  std::int64_t longest = phase == "decode" ? run.context : run.prompt + run.output;
  const char* which = phase == "decode" ? "context" : phase == "prefill" ? "prompt" : "prompt + output";
  if (longest > run.arch.max_context) {
    std::string what = fmt::format("{}: {} tokens exceed {}'s max_context {} (the longest sequence it was trained "
                                   "for)", which, longest, run.arch.name, run.arch.max_context);
    if (strict || !warnings) fail(what + (strict ? " (strict=true)" : ""));
    warnings->push_back(fmt::format("workload '{}': {}; simulated anyway (strict=true refuses)", spec.text(), what));
  }
  check_parallelism(run.arch, run.batch, run.parallel, spec.text());
  return run;
}

}  // namespace hwsim
