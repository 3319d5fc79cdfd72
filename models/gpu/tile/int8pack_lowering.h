#pragma once
// PyTorch's _weight_int8pack_mm on CUDA (aten/src/ATen/native/cuda/int8mm.cu; GemmOp::quant_kernel
// int8pack) → four kernels, as the framework launches them: x.to(fp32), scales.to(fp32), the
// product, out.to(act).
//
// The product is a SIMT kernel with one thread per output element (16 × 16 threads a block, the
// block's x along N, y along M) looping over K: acc += x[b][k] · float(w[n][k]). A warp holds 16
// outputs of two activation rows, so each trip its weight loads touch 16 rows of W (16 L1 lines: the
// rows are K bytes apart) and its activation loads two rows of x; the L1 tag stage takes one line a
// clock, so a warp's trip costs ~18 clocks of the SM's L1 whatever the bytes, and nothing is reused
// across threads (no tiling, no tensor cores). Its time grows with M × N × K from M = 2 on.
// With few warps on an SM the loop's dependency (the load's latency, the convert, the FMA) shows:
// each trip of a CTA's warps waits one load-to-use latency beyond the L1's queue, modelled as the
// CTA's exposed latency (Kernel::prologue: K trips of it) before its L1 work, which the SM's CTAs
// share.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

// The kernels of `gemm` (int8 weights, 16-bit activations, dequant fused) on `chip`; the product's
// L2 objects are numbered from `object_base`.
std::vector<Kernel> lower_int8pack(const GemmOp& gemm, const std::string& name, const GpuChip& chip,
                                   std::int64_t object_base, TensorIds tensors = {});

}  // namespace hwsim
