#pragma once
// The attention kernels a GPU's software stack offers (software facts, like the GEMM library's
// habits in library_habits.h): which implementations are built for the chip, the order in which
// PyTorch's scaled_dot_product_attention tries them, and how much of the tensor-core rate each
// kernel design sustains in its main loop. cuDNN's is gpu.tile.attention_efficiency (GpuChip).
#include <vector>

#include "ops/attention_impl.h"

namespace hwsim {

class Config;

struct AttentionHabits {
  // gpu.attention.priority: SDPA's order (sdp_utils.cpp priority_order: flash, efficient, math,
  // cudnn; cuDNN first on sm90/sm100 with cuDNN > 9.15). The first available implementation that
  // supports the op's dtype and shape runs.
  std::vector<AttentionImpl> priority = {AttentionImpl::flash2, AttentionImpl::mem_efficient, AttentionImpl::naive,
                                         AttentionImpl::cudnn};
  // gpu.attention.available: implementations built for this GPU (FlashAttention-3 needs Hopper).
  std::vector<AttentionImpl> available = {AttentionImpl::naive, AttentionImpl::mem_efficient, AttentionImpl::flash2,
                                          AttentionImpl::cudnn};
  // Sustained fraction of the instruction path's tensor rate in each kernel's main loop (the
  // softmax, rescaling and pipeline bubbles between the two matmuls). FlashAttention-2 and the
  // memory-efficient kernel issue mma.sync, so GpuChip::mma.mma_sync_fraction scales them too.
  double flash2_efficiency = 0.7;
  double flash3_efficiency = 0.75;
  double mem_efficient_efficiency = 0.5;       // fp16/bf16 inputs
  double mem_efficient_fp32_efficiency = 0.5;  // fp32 inputs: of the 3xTF32 rate

  bool offers(AttentionImpl impl) const;
  static AttentionHabits from_config(const Config& config);
};

}  // namespace hwsim
