#pragma once
// Memory a language-model run holds (LlmFacts in workloads/workload.h), exact for its dtypes:
// - weights: linear layers in the weights dtype (int4 counted at 0.5 B/element; quantisation
//   scales are the hardware side's dequantisation cost); token/position embeddings and norm γ/β
//   in the activation dtype (quantisers keep them unquantised); the LM head in the weights dtype,
//   or nothing extra when tied to the embedding.
// - KV cache: layers · 2 (K, V) · kv_heads · head_dim · kv dtype per position per sequence, for
//   every position a sequence holds at the end (sliding window: only the last `window`).
// - activations: the largest step's live set, with intermediates freed once consumed and
//   flash attention (no score matrix): per new token the residual stream plus the widest op's
//   input and output; per sequence the last token's hidden state and its logits.
#include "workloads/llm/llm_run.h"
#include "workloads/workload.h"

namespace hwsim {

LlmFacts llm_facts(const LlmRun& run);

}  // namespace hwsim
