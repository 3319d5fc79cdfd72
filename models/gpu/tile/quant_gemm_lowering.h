#pragma once
// Weight-only quantised GEMMs (GemmOp::b narrower than ::a: int4, int8 or fp8 weights with 16-bit
// activations) → kernels, by GemmOp::dequant:
//  - fused: one kernel of the chip's fused weight-only design (chip.quant_library.fused: tinygemm
//    or Marlin, models/gpu/library_habits_quant.h), or the one GemmOp::quant_kernel names (int8pack:
//    PyTorch's per-output SIMT kernel, int8pack_lowering.h). Each CTA streams its packed weights and their
//    scales, unpacks and scales them in registers (FP32/ALU-pipe work beside the mma.sync math),
//    and multiplies them with the activation rows of one pass. Weights are read, and dequantised,
//    once per pass of m_tile rows: the advantage over a 16-bit GEMM shrinks, then reverses, as M
//    grows.
//  - separate: a dequantisation kernel reads the packed weights and scales and writes them in the
//    activation dtype (into the very L2 objects the GEMM then loads), then an ordinary GEMM.
// The kernels' config says the weight bytes read (packed weights and scales) and the dequantisation's
// share of the SM time.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// True when the GEMM's weights are stored narrower than its activations (weight-only formats).
bool is_weight_only(const GemmOp& gemm);

// Bytes of the quantisation scales (and zero points) a weight-only GEMM reads beside its weights:
// int4 groups of kQuantGroup weights along K carry a 16-bit scale and zero each (torchao int4
// weight-only, GPTQ); int8 and fp8 one 16-bit scale per output channel.
double quant_scale_bytes(const GemmOp& gemm);

// The same per weight of a large matrix, for the capacity check (DeviceInfo::weight_scale_bytes):
// int4's group scale and zero; int8's per-channel scales amortise to nothing and count 0.
double quant_scale_bytes_per_weight(DType weights);

std::vector<Kernel> lower_quant_gemm(const GemmOp& gemm, const std::string& name, const GpuChip& chip,
                                     std::int64_t object_base, TensorIds tensors = {});

}  // namespace hwsim
