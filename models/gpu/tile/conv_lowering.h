#pragma once
// A convolution → GPU kernels the way cuDNN's implicit-GEMM algorithms run it: one GEMM kernel
// (M = N·OH·OW, N = out_c/groups, K = in_c/groups·KH·KW; groups as a grouped GEMM) chosen by the
// GEMM tile heuristic; a depthwise conv (no reduction across channels to feed tensor cores) as one
// memory-bound stream kernel. Pure, no SystemC.
#include <string>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// Throws UserError(workload) for a conv that check_conv refuses or math the chip lacks.
Kernel lower_conv(const ConvOp& conv, const std::string& name, const GpuChip& chip, std::int64_t object_base,
                  TensorIds tensors = {});

}  // namespace hwsim
