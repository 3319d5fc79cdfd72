#pragma once
// Attention → kernels, by implementation (AttentionOp::impl). `automatic` is what PyTorch's
// scaled_dot_product_attention picks on the chip: the first implementation of
// chip.attention_library.priority that the chip offers and that supports the op's dtypes and shape
// (sdp_utils.cpp's filters: fused kernels take fp16/bf16 only, except the memory-efficient one,
// which also takes fp32 but not grouped-query attention; FlashAttention-2 refuses a causal mask
// with q_len ≠ kv_len; cuDNN needs head_dim ≤ 256 in multiples of 8 and more than one key). An implementation asked for by name that
// cannot run the op is a clear error naming the reason.
//  - naive: naive_attention_lowering (scores materialised, PyTorch's math path)
//  - mem_efficient, flash2, flash3, cudnn: flash_attention_lowering
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

struct AttentionChoice {
  AttentionImpl impl = AttentionImpl::cudnn;
  std::string why;  // "SDPA default on <chip> for bf16" or "asked for"
};

// The implementation that runs `op` on `chip`; throws UserError(workload) when none can (or the
// one asked for cannot), with the reason.
AttentionChoice choose_attention_impl(const AttentionOp& op, const GpuChip& chip, const std::string& name = "attention");

// Why `impl` cannot run `op` on `chip` ("" when it can).
std::string attention_unsupported(AttentionImpl impl, const AttentionOp& op, const GpuChip& chip);

// `tensors`: Q is read from tensors.input, O written to tensors.output; the KV cache is an object
// of its own (per sequence and KV head) under `object_base`.
std::vector<Kernel> lower_attention(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                    std::int64_t object_base, TensorIds tensors = {});

}  // namespace hwsim
