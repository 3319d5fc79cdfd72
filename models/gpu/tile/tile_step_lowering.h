#pragma once
// Lowers one step's ops to GPU kernels of CTA tiles (pure, no SystemC): GEMMs by tile choice
// (gemm_lowering), memory-bound ops (stream_lowering), attention (attention_lowering). Each op
// gets its own range of L2 object ids; its tensors keep the identities the runner gave them.
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "sim/device/device.h"

namespace hwsim {

// Throws UserError(workload) for math or storage the chip lacks (fp8 on an A100), an op carrying
// XLA-fused work (the GPU lowers eager or fused kernels), or a kernel too large to simulate.
std::vector<Kernel> lower_tile_step(const StepProgram& step, const GpuChip& chip);

}  // namespace hwsim
