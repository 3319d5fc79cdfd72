#include "models/gpu/tile/attention_lowering.h"

#include <fmt/format.h>

#include "models/gpu/tile/flash_attention_lowering.h"
#include "models/gpu/tile/naive_attention_lowering.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// sdp_utils.cpp: FlashAttention and cuDNN take head dims up to 256 (cuDNN on sm90/sm100 with a
// recent cuDNN), cuDNN and the memory-efficient kernel need them in multiples of the 16-byte
// vector (8 elements for 16-bit, 4 for fp32).
constexpr std::int64_t kMaxFusedHeadDim = 256;

bool is_half(DType t) { return t == DType::bf16 || t == DType::fp16; }

std::string dtype_rule(AttentionImpl impl, const AttentionOp& op) {
  bool half = is_half(op.dtype);
  switch (impl) {
    case AttentionImpl::mem_efficient:
      if (!half && op.dtype != DType::fp32) return "takes fp16, bf16 and fp32 inputs only";
      if (op.kv_dtype != op.dtype) return "needs K and V in the query's dtype";
      if (op.head_dim % (half ? 8 : 4) != 0) return fmt::format("needs head_dim a multiple of {}", half ? 8 : 4);
      return "";
    case AttentionImpl::flash3:
      if (!half && op.dtype != DType::fp8) return "takes fp16, bf16 and fp8 inputs only";
      return "";
    case AttentionImpl::flash2:
    case AttentionImpl::cudnn:
      if (!half) return "takes fp16 and bf16 inputs only";
      return "";
    default:
      if (op.kv_dtype != op.dtype) return "needs K and V in the query's dtype";
      return "";
  }
}

std::string shape_rule(AttentionImpl impl, const AttentionOp& op) {
  bool fused = impl != AttentionImpl::naive;
  if (fused && op.head_dim > kMaxFusedHeadDim) return fmt::format("takes head_dim up to {}", kMaxFusedHeadDim);
  if (impl == AttentionImpl::flash2 && op.causal && op.q_len != op.kv_len)
    return "does not support a causal mask with q_len != kv_len (SDPA's check_flash_causal_non_square_seqlens)";
  // PyTorch 2.11 (the measured stack): the memory-efficient backend refuses enable_gqa with fewer
  // KV heads than query heads ("No available kernel" in the H100 campaign's decode_gqa and
  // prefill_gqa cases), so SDPA falls through to the math path for GQA in fp32.
  if (impl == AttentionImpl::mem_efficient && op.heads != op.kv_heads)
    return "does not take grouped-query attention (fewer KV heads than query heads)";
  if (impl == AttentionImpl::cudnn && op.head_dim % 8 != 0) return "needs head_dim a multiple of 8";
  if (impl == AttentionImpl::cudnn && op.kv_len == 1) return "does not support a key length of 1";
  return "";
}

}  // namespace

std::string attention_unsupported(AttentionImpl impl, const AttentionOp& op, const GpuChip& chip) {
  if (!chip.attention_library.offers(impl))
    return fmt::format("is not available on {} (gpu.attention.available)", chip.name);
  std::string why = dtype_rule(impl, op);
  return why.empty() ? shape_rule(impl, op) : why;
}

AttentionChoice choose_attention_impl(const AttentionOp& op, const GpuChip& chip, const std::string& name) {
  if (op.impl != AttentionImpl::automatic) {
    std::string why = attention_unsupported(op.impl, op, chip);
    if (!why.empty())
      workload_error(fmt::format("{}: attention impl={} {} ({} attention, head_dim {}, q_len {}, kv_len {})", name,
                                 attention_impl_name(op.impl), why, dtype_name(op.dtype), op.head_dim, op.q_len,
                                 op.kv_len));
    return {op.impl, "asked for"};
  }
  std::string reasons;
  for (AttentionImpl impl : chip.attention_library.priority) {
    std::string why = attention_unsupported(impl, op, chip);
    if (why.empty()) return {impl, fmt::format("SDPA's choice on {} for {}", chip.name, dtype_name(op.dtype))};
    reasons += fmt::format("{}{} {}", reasons.empty() ? "" : "; ", attention_impl_name(impl), why);
  }
  workload_error(fmt::format("{}: no attention implementation on {} runs this {} attention: {}", name, chip.name,
                             dtype_name(op.dtype), reasons));
}

std::vector<Kernel> lower_attention(const AttentionOp& op, const std::string& name, const GpuChip& chip,
                                    std::int64_t object_base, TensorIds tensors) {
  AttentionChoice choice = choose_attention_impl(op, chip, name);
  std::vector<Kernel> kernels = choice.impl == AttentionImpl::naive
                                    ? lower_naive_attention(op, name, chip, object_base, tensors)
                                    : lower_flash_attention(op, choice.impl, name, chip, object_base, tensors);
  kernels.front().config += fmt::format(" [{}: {}]", attention_impl_name(choice.impl), choice.why);
  return kernels;
}

}  // namespace hwsim
