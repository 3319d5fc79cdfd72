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
#include <vector>

#include "workloads/llm/llm_run.h"
#include "workloads/workload.h"

namespace hwsim {

// The whole run on one device (global batch, unsharded), whatever the parallel layout: what the
// run's metrics (tokens/s) and the single-device capacity check use.
LlmFacts llm_facts(const LlmRun& run);

// Per pipeline stage, what ONE device of that stage holds under run.parallel (the same rules):
// - weights: its layers' linear weights split by tp (attention by heads, FFN by ffn; MoE: its
//   experts / ep experts, each split by tp), the router and norm γ/β replicated; stage 0 the
//   token embedding split by tp over the padded vocabulary (learned positions replicated); the
//   last stage the final norm and the LM head split by tp (tied: nothing on one stage; with pp > 1
//   the last stage keeps its own copy of the embedding shard, as Megatron does).
// - KV cache: its layers, kv_heads / tp heads, for the batch / (dp·ep) sequences of the device
//   (every microbatch's), at the run's final context (window-capped).
// - activations: the live set of one microbatch's largest step (a stage works on one microbatch at
//   a time and inference keeps nothing for a backward pass): per new token the residual stream
//   plus the widest op's per-rank input and output; on the last stage also each sequence's last
//   hidden state and its gathered logits (the whole padded vocabulary).
std::vector<DeviceFootprint> stage_footprints(const LlmRun& run);

// The activations of one device of a tp group (the rules above) in a step of `tokens` new tokens
// whose last stage produces the logits of `sequences` sequences: per token the residual stream plus
// the widest op's per-rank input and output, per sequence its last hidden state and gathered logits.
double step_activation_bytes(const ModelArchitecture& m, const LlmDtypes& dtypes, std::int64_t tp, double tokens,
                             double sequences);

}  // namespace hwsim
