#pragma once
// Attention with the scores materialised in memory: PyTorch's MATH backend of
// scaled_dot_product_attention (attention.cpp, _scaled_dot_product_attention_math), kernel by
// kernel as eager PyTorch launches them:
//   16-bit inputs are upcast to fp32 first (q, k, v: three copies; PyTorch ≥ 2.5 keeps the math
//   path in fp32 unless allow_fp16_bf16_reduction_math_sdp) — q·√scale — causal: the mask built as
//   ones → tril → zeros_like → logical_not → masked_fill — GQA: k and v repeat_interleave'd to every
//   query head — k·√scale — QKᵀ as a batched fp32 GEMM (cuBLAS SGEMM: TF32 is off by default) —
//   scores += mask — _safe_softmax (softmax, eq(−inf), all, where: four kernels) — PV as a batched
//   fp32 GEMM — the result converted back to the input dtype.
// Every kernel is a separate pass over HBM-sized tensors; the scores (B·H·Sq·Skv fp32) alone are
// written and read several times, which is why this path falls behind the fused kernels as the
// sequence grows. Approximations: a broadcast operand (the [Sq, Skv] mask, the per-row flags) is
// read once per kernel; the GEMMs load K and V through their own panels, not from the objects the
// scale and repeat kernels wrote.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// Throws UserError(workload) when the live temporaries (the fp32 scores, probabilities and the
// expanded K and V) do not fit the device memory, as PyTorch's allocator would run out.
std::vector<Kernel> lower_naive_attention(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                          std::int64_t object_base, TensorIds tensors);

// Bytes of the math path's largest live set (see above).
double naive_attention_peak_bytes(const AttentionOp& op);

}  // namespace hwsim
