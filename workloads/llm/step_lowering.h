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

#include "workloads/llm/architecture.h"
#include "workloads/llm/llm_run.h"
#include "ops/op_graph.h"

namespace hwsim {

// One step: `batch` sequences each adding `q_len` new tokens and attending over `kv_len` keys
// (the new ones included). Decode: q_len = 1, kv_len = context + 1. Prefill: q_len = kv_len = prompt.
struct LlmStepShape {
  std::int64_t batch = 1;
  std::int64_t q_len = 1;
  std::int64_t kv_len = 1;
  std::int64_t tokens() const { return batch * q_len; }
};

OpGraph lower_llm_step(const ModelArchitecture& arch, const LlmDtypes& dtypes, const LlmStepShape& shape);

}  // namespace hwsim
