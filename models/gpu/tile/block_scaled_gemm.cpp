#include "models/gpu/tile/block_scaled_gemm.h"

namespace hwsim {
namespace {

// One FFMA (2 FLOPs) per accumulator element per scale block: acc += (s_x · s_w) · partial
// (DeepGEMM fp8_gemm.cuh's promotion; the per-row product s_x · s_w is shared by a thread's
// columns and not counted).
constexpr double kPromotionFlops = 2;

}  // namespace

int scale_block_elements(BlockScale scale) {
  switch (scale) {
    case BlockScale::block128: return 128;
    case BlockScale::mx32: return 32;
    default: return 0;
  }
}

bool block_scales_on_cuda_cores(const GemmOp& g, const GpuChip& chip) {
  if (g.scale == BlockScale::none) return false;
  return !(g.scale == BlockScale::mx32 && chip.block_scale.mx_in_tensor_core);
}

double block_scaled_rate(const GemmOp& g, const GpuChip& chip, double tensor_rate) {
  if (!block_scales_on_cuda_cores(g, chip)) return tensor_rate;
  double kb = scale_block_elements(g.scale);
  double tensor_time = 2.0 * kb / tensor_rate;
  double promotion_time = kPromotionFlops / chip.flop_rate_per_sm(DType::fp32);
  return 2.0 * kb / (tensor_time + (1.0 - chip.block_scale.promotion_overlap) * promotion_time);
}

std::string block_scale_label(const GemmOp& g, const GpuChip& chip) {
  if (g.scale == BlockScale::none) return "";
  const char* what = g.scale == BlockScale::mx32 ? "mx 1x32" : "block 1x128/128x128";
  return std::string(" scales ") + what + (block_scales_on_cuda_cores(g, chip) ? " promoted on CUDA cores" : " in tensor cores");
}

}  // namespace hwsim
