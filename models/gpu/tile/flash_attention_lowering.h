#pragma once
// Fused (flash-style) attention kernels → CTA tiles. Every fused implementation keeps the scores in
// registers and shared memory: one CTA per (sequence, head, query tile[, KV split]) walks its
// visible KV tiles with an online softmax; the causal mask skips tiles above the diagonal (tiles on
// it are computed whole); GQA heads of one group read the same K/V, which L2 serves after the
// first. The implementations differ in their tiles, their instruction path and efficiency, and in
// how they treat few queries (decoding):
//  - cudnn: q128×kv128 tiles (Hopper wgmma). At ≤ 16 queries, split-KV: one CTA per (sequence, KV
//    head, split) holding the group's queries padded to a 16-row MMA, enough splits for two CTAs
//    per SM but no split shorter than 256 keys, and a combine kernel (the profile's
//    lean_reduction).
//  - flash2 (FlashAttention-2, flash_api.cpp): q128×kv64 tiles (hdim 128, sm80/sm90), mma.sync. One
//    query and GQA: the group's heads become the query rows (seqlenq_ngroups_swapped). Splits by
//    num_splits_heuristic over 2 CTAs per SM (64-row, 128-key split kernel) and a combine kernel.
//  - flash3 (FlashAttention-3, Hopper): q128 × kv176 (kv128 causal) tiles, wgmma, the same split
//    heuristic with packed GQA heads.
//  - mem_efficient (CUTLASS FMHA, xFormers): q64×kv128 tiles for 16-bit, q32×kv128 for fp32 (3xTF32
//    emulation: OpMultiplyAddFastF32, three TF32 MMAs per product), mma.sync; no split-KV and no
//    packing of GQA heads: at one query a CTA computes a 64-row tile for a single row.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// FlashAttention-2's num_splits_heuristic (flash_api.cpp): 1 when the CTAs nearly fill the SMs
// (≥ 0.8 · slots), else the fewest splits whose wave efficiency is within 85 % of the best.
std::int64_t flash_num_splits(std::int64_t batch_heads_mblocks, std::int64_t slots, std::int64_t n_blocks,
                              std::int64_t max_splits);

// `impl` is one of cudnn, flash2, flash3, mem_efficient (checked by the caller: attention_lowering).
std::vector<Kernel> lower_flash_attention(const AttentionOp& op, AttentionImpl impl, const std::string& name,
                                          const GpuChip& chip, std::int64_t object_base, TensorIds tensors);

}  // namespace hwsim
