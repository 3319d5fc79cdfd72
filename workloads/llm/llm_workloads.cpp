// Language-model workloads: the phases decode, prefill and generate (llm_run.h), and named presets.
#include <fmt/format.h>

#include "workloads/llm/footprint.h"
#include "workloads/llm/llm_run.h"
#include "workloads/llm/step_lowering.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

// Every step produces one token per sequence (the LM head's next token): a generate of output=N
// is a prefill and N − 1 decode steps, N tokens a sequence. Labels: "prefill", "decode@KV" with
// KV the keys attended over (context + 1).
// Several devices (run.parallel not all 1): each step's graph is one device per pipeline stage
// (lower_parallel_llm_step); WorkloadStep::tokens and LlmFacts stay the whole run's (global batch,
// every replica), Workload::parallel is the layout and Workload::stage_footprint what one device of
// each stage holds. One device: today's graphs, stage_footprint empty.
// A generate's decode steps are lowered just in time (WorkloadStep::lower): a runner builds each
// graph when it reaches the step and drops it after, so memory does not grow with `output`.
Workload build_llm(const LlmRun& run) {
  Workload w;
  w.steps.reserve(std::size_t(1 + run.output));
  auto shared = std::make_shared<const LlmRun>(run);
  auto lower = [shared](const LlmStepShape& shape) {
    const LlmRun& r = *shared;
    const bool single = r.parallel.single() && r.parallel.microbatches == 1;
    return single ? lower_llm_step(r.arch, r.dtypes, shape) : lower_parallel_llm_step(r.arch, r.dtypes, shape, r.parallel);
  };
  auto step = [&](std::string label, std::string phase, LlmStepShape shape) {
    w.steps.push_back(WorkloadStep{std::move(label), lower(shape), run.batch, std::move(phase)});
  };
  if (run.phase == "decode") step(fmt::format("decode@{}", run.context + 1), "decode", {run.batch, 1, run.context + 1});
  if (run.phase != "decode") step("prefill", "prefill", {run.batch, run.prompt, run.prompt});
  // generate: `output` tokens per sequence, as vLLM's max_tokens: the prefill gives the first,
  // then decode step j (0-based) has prompt + j tokens cached and adds one, output − 1 steps.
  for (std::int64_t j = 0; j + 1 < run.output; ++j) {
    std::int64_t kv_len = run.prompt + j + 1;
    LlmStepShape shape{run.batch, 1, kv_len};
    WorkloadStep s{fmt::format("decode@{}", kv_len), {}, run.batch, "decode", [lower, shape] { return lower(shape); }};
    // After the first decode step, each one's graph is the last one's at a longer cache.
    if (j > 0) s.reshape = [kv_len](OpGraph& g) { return reshape_decode_step(g, kv_len); };
    w.steps.push_back(std::move(s));
  }
  w.llm = llm_facts(run);
  w.framework = run.framework;
  w.parallel = run.parallel;
  if (!run.parallel.single() || run.parallel.microbatches != 1) w.stage_footprint = stage_footprints(run);
  return w;
}

// Parses and builds, keeping the parser's warnings (a context beyond the model's maximum).
Workload build_phase(const WorkloadSpec& spec, const std::string& phase) {
  std::vector<std::string> warnings;
  Workload w = build_llm(parse_llm_run(spec, phase, &warnings));
  w.warnings = std::move(warnings);
  return w;
}

WorkloadBuilder phase_builder(std::string phase) {
  return [phase](const WorkloadSpec& spec) { return build_phase(spec, phase); };
}

// A preset is a phase with defaults; any field given in the spec wins (decode_llama8b:batch=8).
WorkloadBuilder preset_builder(std::string phase, std::map<std::string, std::string> defaults) {
  return [phase, defaults](const WorkloadSpec& spec) { return build_phase(spec.with_defaults(defaults), phase); };
}

const char* kCommon = "weights=, act=, kv= dtypes (bf16|fp16|fp8|int8; int4 for weights only; default bf16, kv "
                      "defaults to act), dequant=fused|separate (weights narrower than act), "
                      "attention=auto|naive|mem_efficient|flash2|flash3|cudnn, strict=false (true: refuse a context "
                      "beyond the model's max_context instead of warning), the parallel layout tp=, pp=, ep=, dp=, microbatches= (default 1) and any "
                      "architecture field (layers=, experts=, window=, ...)";

HWSIM_REGISTER_WORKLOAD("decode", fmt::format("one decode step: model=, batch=1, context= (tokens cached per "
                                              "sequence; attends over context+1); {}", kCommon),
                        phase_builder("decode"));
HWSIM_REGISTER_WORKLOAD("prefill", fmt::format("one prefill step over batch·prompt tokens (causal): model=, "
                                               "batch=1, prompt=; {}", kCommon),
                        phase_builder("prefill"));
HWSIM_REGISTER_WORKLOAD("generate", fmt::format("prefill, then decode steps with the context growing, `output` "
                                                "tokens a sequence in all (vLLM's max_tokens: the prefill gives the "
                                                "first): model=, batch=1, prompt=, output=; {}", kCommon),
                        phase_builder("generate"));

HWSIM_REGISTER_WORKLOAD("decode_llama8b",
                        "decode preset: model=llama3_8b, batch=1, context=512, weights=bf16, act=bf16, kv=bf16 "
                        "(override any field: decode_llama8b:batch=8)",
                        preset_builder("decode", {{"model", "llama3_8b"}, {"batch", "1"}, {"context", "512"},
                                                  {"weights", "bf16"}, {"act", "bf16"}, {"kv", "bf16"}}));
HWSIM_REGISTER_WORKLOAD("prefill_llama8b",
                        "prefill preset: model=llama3_8b, batch=1, prompt=2048, weights=bf16, act=bf16, kv=bf16",
                        preset_builder("prefill", {{"model", "llama3_8b"}, {"batch", "1"}, {"prompt", "2048"},
                                                   {"weights", "bf16"}, {"act", "bf16"}, {"kv", "bf16"}}));
HWSIM_REGISTER_WORKLOAD("decode_llama70b",
                        "decode preset: model=llama3_70b, batch=1, context=512, weights=bf16, act=bf16, kv=bf16",
                        preset_builder("decode", {{"model", "llama3_70b"}, {"batch", "1"}, {"context", "512"},
                                                  {"weights", "bf16"}, {"act", "bf16"}, {"kv", "bf16"}}));
HWSIM_REGISTER_WORKLOAD("decode_mixtral",
                        "decode preset: model=mixtral_8x7b, batch=1, context=512, weights=bf16, act=bf16, kv=bf16",
                        preset_builder("decode", {{"model", "mixtral_8x7b"}, {"batch", "1"}, {"context", "512"},
                                                  {"weights", "bf16"}, {"act", "bf16"}, {"kv", "bf16"}}));
HWSIM_REGISTER_WORKLOAD("generate_llama8b",
                        "generate preset: model=llama3_8b, batch=1, prompt=128, output=128 (128 steps), "
                        "weights=bf16, act=bf16, kv=bf16",
                        preset_builder("generate", {{"model", "llama3_8b"}, {"batch", "1"}, {"prompt", "128"},
                                                    {"output", "128"}, {"weights", "bf16"}, {"act", "bf16"},
                                                    {"kv", "bf16"}}));

}  // namespace
}  // namespace hwsim
