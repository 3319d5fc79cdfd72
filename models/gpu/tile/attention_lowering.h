#pragma once
// Attention → kernels of CTA tiles.
//  - Prefill-like (many queries): FlashAttention tiles, one CTA per (sequence, head, query tile
//    of kQueryTile rows) walking the visible KV tiles with an online softmax; the causal mask
//    skips tiles above the diagonal (diagonal tiles are computed in full); GQA heads of one group
//    read the same K/V, which L2 serves after the first.
//  - Decode-like (few queries): split-KV flash-decoding, one CTA per (sequence, KV head, KV
//    split) holding every query head of the group; a second, small kernel combines the splits.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// `tensors`: Q is read from tensors.input, O written to tensors.output; the KV cache is an object
// of its own (per sequence and KV head) under `object_base`.
std::vector<Kernel> lower_attention(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                    std::int64_t object_base, TensorIds tensors = {});

}  // namespace hwsim
