#pragma once
// The forward passes of one engine step (docs/serving.md, "The step's shape"), built from the
// scheduler's plan: without speculation one pass of the target model; with speculation k passes of
// the draft (the first with the step's prefill chunks and one token per decoding sequence, the
// others one token per decoding sequence), then the target's verification pass of k + 1 query
// tokens per decoding sequence and the prefill chunks.
//
// A pass's shape: the decodes form one attention group over their mean context (KV positions after
// the pass) rounded up to context_bucket; each prefill chunk is its own causal group (q_len = chunk,
// kv_len = positions before + chunk); every other op runs over all the pass's tokens, padded to the
// smallest CUDA-graph capture size that holds them (ServeSpec::graph_rows).
#include <string>
#include <vector>

#include "run/serving/serving_scheduler.h"
#include "run/serving/serving_step_cache.h"
#include "workloads/llm/step_lowering.h"

namespace hwsim {

struct StepPass {
  bool draft = false;
  LlmStepShape shape;
  ShapeKey key;  // draft, decodes, query tokens, context, then each chunk's (tokens, kv_len)
  std::int64_t decodes = 0, query = 1, context = 0, prefill_tokens = 0;
  std::string label() const;  // "serve decode 240@320 prefill 1808", "serve draft …", "serve verify 64x5@336 …"
};

std::vector<StepPass> step_passes(const StepPlan& plan, const std::vector<ServeSeq>& seqs, const ServeSpec& spec);

}  // namespace hwsim
