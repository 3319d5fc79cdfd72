#pragma once
// Who applies the per-block scales of a block-scaled fp8 GEMM (ops/op.h BlockScale), and how
// much of that work a kernel hides:
//  - a tensor core with block scaling in the MMA instruction (Blackwell's tcgen05.mma
//    kind::mxf8f6f4: one E8M0 scale per 32 elements along K, read from tensor memory) applies MX
//    scales at the plain fp8 rate;
//  - otherwise (Hopper's wgmma has no block scale; FP32 scales of 1x128/128x128 blocks on any
//    chip) the kernel issues an MMA per scale block into fresh accumulators and promotes them on
//    the CUDA cores: acc += (s_x * s_w) * partial, one FFMA per accumulator element per block
//    (DeepGEMM's and CUTLASS's blockwise kernels), while the other consumer warpgroup's MMAs run.
namespace hwsim {

class Config;

struct BlockScalePaths {
  // gpu.sm.mx_block_scale: the tensor cores apply OCP MX block scales (1x32, E8M0) themselves.
  bool mx_in_tensor_core = false;
  // gpu.tile.block_scale_overlap: fraction of the CUDA-core promotion work hidden behind tensor
  // work (the other warpgroup's MMAs); the rest adds to the main loop.
  double promotion_overlap = 0;

  static BlockScalePaths from_config(const Config& config);
};

}  // namespace hwsim
