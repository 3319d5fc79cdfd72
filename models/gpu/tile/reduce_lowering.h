#pragma once
// Reductions over the contiguous last dimension of a [rows, D] tensor (op_class "reduction": a
// sum, max or top-k per row; rows = 1 reduces the whole tensor to one value) → one kernel shaped
// as PyTorch's generic reduction shapes it (ATen native/cuda/Reduce.cuh, setReduceConfig):
// 512-thread CTAs, each thread walking its values one (vectorised) load at a time, and, when one
// row is long and there are few rows, a row split over several CTAs whose partial results the
// grid's last CTA combines (a semaphore memset before the kernel, partials written, fenced and
// counted with an atomic, then re-read): the global combine, GpuChip::reduce_combine.
#include <cstdint>
#include <string>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// Bytes of one input element of a stream op: its element_bytes, or fp32's 4 where it does not say
// (the StreamOp contract). Reductions, softmax and the unvectorised elementwise kernels count in
// elements.
inline double stream_element_bytes(const StreamOp& op) { return op.element_bytes > 0 ? op.element_bytes : 4; }

// The launch shape setReduceConfig picks (contiguous reduced dimension).
struct ReduceShape {
  int threads = 1;                  // per CTA (block_width × block_height)
  std::int64_t ctas = 1;            // the grid: row groups × ctas_per_output
  std::int64_t ctas_per_output = 1; // > 1: a row split over CTAs, combined through global memory
  std::int64_t rows_per_cta = 1;    // rows one CTA reduces (one per warp row of the block)
  std::int64_t loads_per_thread = 1;// loads each thread issues, one after another
  int elements_per_load = 1;        // 4 when the input is read as vectors, else 1
};

// outputs: rows; inputs_per_output: elements per row; threads_per_sm and sms: the chip's
// (target grid = SMs × CTAs of `threads` that fit an SM).
ReduceShape reduce_shape(std::int64_t outputs, std::int64_t inputs_per_output, int threads_per_sm, int sms);

// Fills `k` (the stream lowering's common fields) with the reduction's CTAs.
Kernel lower_reduction(const StreamOp& op, const GpuChip& chip, TensorIds tensors, Kernel k);

}  // namespace hwsim
