#pragma once
// Block-scaled fp8 GEMMs (ops/op.h BlockScale) on the tile model: the main loop's SM rate once the
// per-block scale work is paid on the cores that do it (models/gpu/block_scale_paths.h).
//
// Per output element and per scale block of kb elements along K, the tensor cores do 2·kb FLOPs
// at the GEMM's tensor rate. Where the MMA applies the scales itself (MX scales on a chip with
// gpu.sm.mx_block_scale) nothing is added. Otherwise the CUDA cores promote the block's partial
// sum with one FFMA (kPromotionFlops at the chip's FP32 rate), of which the fraction
// gpu.tile.block_scale_overlap is hidden behind tensor work:
//
//   rate = 2·kb / (2·kb / tensor_rate + (1 − overlap) · kPromotionFlops / fp32_rate)
//
// So the cost grows with the ratio of the tensor to the CUDA-core rate: 1x128 blocks cost an
// H100 (fp8 8192 vs fp32 256 FLOP/clk/SM) a quarter of the main loop before overlap, a B200
// (16384 vs 256) half of it, and MX scales promoted on CUDA cores four times that.
#include <string>

#include "models/gpu/gpu_chip.h"
#include "ops/op.h"

namespace hwsim {

// Elements along K sharing one scale (0: no per-block scale).
int scale_block_elements(BlockScale scale);

// Whether the chip's CUDA cores (not its tensor cores) apply the GEMM's block scales.
bool block_scales_on_cuda_cores(const GemmOp& gemm, const GpuChip& chip);

// The main-loop SM FLOP rate of `gemm` given its plain tensor rate (efficiency applied).
double block_scaled_rate(const GemmOp& gemm, const GpuChip& chip, double tensor_rate);

// What a kernel's config line says about the scales ("" without per-block scales).
std::string block_scale_label(const GemmOp& gemm, const GpuChip& chip);

}  // namespace hwsim
