#pragma once
// Attention implementations by name, as a software stack offers them (PyTorch's
// scaled_dot_product_attention backends, FlashAttention 2 and 3). The frontend records which one a
// workload asks for; which ones a chip can run, and the default, are the device's business
// (models/gpu/library_habits_attention.h).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwsim {

enum class AttentionImpl {
  automatic,      // what the framework picks on the device (PyTorch SDPA's priority order)
  naive,          // scores materialised in memory: QKᵀ GEMM, mask, softmax, PV GEMM (SDPA's MATH backend)
  mem_efficient,  // xFormers/CUTLASS memory-efficient attention (SDPA's EFFICIENT_ATTENTION)
  flash2,         // FlashAttention-2 (SDPA's FLASH_ATTENTION)
  flash3,         // FlashAttention-3 (Hopper: warp-specialised wgmma/TMA kernels)
  cudnn,          // cuDNN's fused flash attention (SDPA's CUDNN_ATTENTION)
};

std::string_view attention_impl_name(AttentionImpl impl);  // "flash2"; "auto" for automatic
// Also the SDPA backend names: math, efficient, flash (FlashAttention-2), cudnn.
std::optional<AttentionImpl> parse_attention_impl(std::string_view name);
std::vector<std::string> attention_impl_names();            // the explicit ones, without "auto"

}  // namespace hwsim
