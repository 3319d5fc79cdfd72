#pragma once
// Lowers one step's ops to GPU kernels of CTA tiles (pure, no SystemC): GEMMs by tile choice
// (gemm_lowering), memory-bound ops (stream_lowering), attention (attention_lowering). Each op
// gets its own range of L2 object ids; its tensors keep the identities the runner gave them.
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/device.h"

namespace hwsim {

// Throws UserError(workload) for math or storage the chip lacks (fp8 on an A100), an op carrying
// XLA-fused work (the GPU lowers eager or fused kernels), or a kernel too large to simulate.
std::vector<Kernel> lower_tile_step(const StepProgram& step, const GpuChip& chip);
// The kernels of the step's op at position `index` of step.order alone (what lower_tile_step
// gives for it): a device lowers each op just before it runs, so one op's CTAs are held at a time.
std::vector<Kernel> lower_tile_op(const StepProgram& step, std::size_t index, const GpuChip& chip);

// Op objects' L2 ids (a GEMM's weight panels, an attention's KV blocks) start at 2^kOpObjectBits;
// the op at position `index` has [op_object_base(index), op_object_base(index + 1)). Tensor
// blocks' ids lie below (ops/tensor_ids.h, cta_list.h).
constexpr int kOpObjectBits = 40;
std::int64_t op_object_base(std::size_t index);
// The same for `op` with tensors `ids` and op objects from `object_base`: its kernels depend on
// the ids only as labels (lowering_memo.h renames them).
std::vector<Kernel> lower_tile_op(const Op& op, const TensorIds& ids, std::int64_t object_base, const GpuChip& chip);

}  // namespace hwsim
