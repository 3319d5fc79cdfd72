#pragma once
// Lowers one LLM forward step to an op graph (shapes and dtypes only). Op names are
// "embed", "L<i>.<op>" per layer, "final_norm", "lm_head". Per layer, in issue order:
//   attn_norm → qkv_proj → rope (rope models only) → kv_append → attention → o_proj →
//   attn_residual → ffn_norm → [dense]  gate_up (up_proj if not gated) → silu_mul (or gelu…) → down_proj
//                             [MoE]    router → topk → expert_gate_up → silu_mul → expert_down
//   → ffn_residual
// Edges are real data dependencies: each op consumes its predecessor's output, kv_append takes K
// from rope and V from qkv_proj, attention takes Q (rope) and the cache (kv_append), the residual
// adds take both branches.
//
// RoPE, the KV-cache append and the gated activation are composite ops: one op each, carrying as
// Op::parts the model code's own small operations. Which kernels run is a framework pass's choice
// (workloads/passes: eager launches one kernel per part, fused one per composite, xla fuses).
//
// What an eager PyTorch run launches (the eager pass): the H100 profile (data/measurements/
// h100_decode_kernels.json, Llama-3-8B batch 1) shows 26 kernels per layer, 836 per step:
// rms_norm ×2; 4 GEMMs plus 2 cublasLt splitKreduce kernels (split-K on o_proj and down_proj at
// batch 1); RoPE as 10 kernels (neg, cat, 2 mul, add for each of q and k); KV append as 2 copy
// kernels; SDPA as a cuDNN flash kernel plus a lean_reduction (split-KV combine) at small batch;
// silu and mul as 2 kernels; 2 residual adds: the parts (RoPE 10, KV append 2, SiLU·mul 2). The split-K
// reduce kernels are the GEMM library's choice and come from the hardware side's lowering.
#include <cstdint>
#include <vector>

#include "workloads/llm/architecture.h"
#include "workloads/llm/llm_run.h"
#include "workloads/workload.h"
#include "ops/op_graph.h"

namespace hwsim {

// One step: `batch` sequences each adding `q_len` new tokens and attending over `kv_len` keys
// (the new ones included). Decode: q_len = 1, kv_len = context + 1. Prefill: q_len = kv_len = prompt.
// Sequences of one attention shape inside a step.
struct LlmAttentionGroup {
  std::int64_t batch = 1, q_len = 1, kv_len = 1;
};

// `groups` (serving: app/serving_runner) makes a mixed step: each group its own attention op
// ("L<i>.attention.g<k>"), every other op over all the groups' tokens, the LM head over all their
// sequences. Empty: the single group {batch, q_len, kv_len} (today's graphs, unchanged).
struct LlmStepShape {
  std::int64_t batch = 1;
  std::int64_t q_len = 1;
  std::int64_t kv_len = 1;
  std::vector<LlmAttentionGroup> groups{};
  // CUDA-graph padding (serving: the step padded to its graph's capture size): token rows that
  // every token-wise op (embedding, projections, norms, RoPE, MLP, collectives) runs over beyond
  // tokens(); attention, the KV append and the LM head see only the real tokens.
  std::int64_t padding_tokens = 0;
  std::int64_t rows() const { return tokens() + padding_tokens; }
  std::int64_t tokens() const {
    if (groups.empty()) return batch * q_len;
    std::int64_t t = 0;
    for (const auto& g : groups) t += g.batch * g.q_len;
    return t;
  }
  std::int64_t sequences() const {
    if (groups.empty()) return batch;
    std::int64_t n = 0;
    for (const auto& g : groups) n += g.batch;
    return n;
  }
};

// One device, the whole model: today's graph (every op on stage 0, no collectives).
OpGraph lower_llm_step(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape);

// A decode step's graph (lower_llm_step or lower_parallel_llm_step of {batch, 1, kv}, after any
// framework pass) made the graph of the same step at cache length `kv_len`: kv_len is the only
// field of the step's ops that depends on it, and it appears only in its attention ops (one group
// per op, q_len 1). False, and nothing changed, when `graph` has an attention op of another form
// or none.
bool reshape_decode_step(OpGraph& graph, std::int64_t kv_len);

// Several devices (Megatron-style; the layout checked by check_parallelism, parallel_layout.h).
// `shape` is the whole run's step (the global batch); the graph holds the ops of ONE device of
// each pipeline stage (Op::stage), every shape per device, and the collectives between them:
// - ep, dp: the device works on batch / (dp·ep) sequences (ep ranks are data-parallel outside the
//   experts), split into `microbatches` of equal size. dp replicas never communicate.
// - tp (Megatron): qkv_proj and gate_up column-split (n / tp), o_proj and down_proj row-split
//   (k / tp), attention, RoPE and the KV append on heads / tp and kv_heads / tp, the activation on
//   ffn / tp; norms, residuals, router and top-k replicated on the full hidden size. After o_proj
//   "L<i>.attn_all_reduce" and after down_proj (MoE: expert_down) "L<i>.ffn_all_reduce";
//   vocabulary-parallel embedding then "embed_all_reduce"; the LM head on vocab / tp (vocab padded
//   to a multiple of tp), then "logits_all_gather" (batch · padded vocab · act bytes).
//   all_reduce bytes: tokens · hidden · act bytes (MoE: tokens · top_k · hidden).
// - ep (MoE): each rank holds experts / ep experts; "L<i>.ep_dispatch" (all_to_all after top-k)
//   and "L<i>.ep_combine" (all_to_all after the expert GEMMs), each tokens · top_k · hidden · act
//   bytes (the buffer each rank sends); the expert GEMMs on the tokens · top_k rows routed to the
//   rank (evenly balanced) over its local experts.
// - pp: stage s runs the layers of stage_layers(layers, pp)[s]; the embedding is on stage 0, the
//   final norm, LM head (and logits gather) on the last stage. "L<j>.send_recv" (axis pp, on the
//   sending stage, j its last layer) carries tokens · hidden · act bytes of the microbatch; the next
//   stage's first ops (attn_norm and attn_residual) take it as input.
// - microbatches > 1: each microbatch is its own copy of the forward pass, names prefixed "mb<k>.";
//   microbatch 0 entirely, then 1, ..., so each stage's ops in execution order are GPipe's order.
// Collectives have op_class "collective", dtype = act, ranks = the layout's size on their axis.
// With every size 1 this is lower_llm_step.
OpGraph lower_parallel_llm_step(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape,
                                const Parallelism& p);

}  // namespace hwsim
