#pragma once
// Memory-bound ops (norms, elementwise, copies) → one kernel of CTAs that each stream a slice of
// the data: bandwidth-bound tiles with their own launch overhead. op_class "norm" gives a
// row-reduction kernel (one CTA per row, latency-bound loop, two passes over the row); op_class
// "reduction" the framework's generic reduction (reduce_lowering.h).
#include <string>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

Kernel lower_stream(const StreamOp& op, const std::string& name, const std::string& op_class,
                    const GpuChip& chip, TensorIds tensors = {}, std::int64_t object_base = -1);

}  // namespace hwsim
