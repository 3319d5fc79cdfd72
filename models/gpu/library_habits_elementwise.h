#pragma once
// PyTorch's elementwise and softmax kernels as they run on a GPU: software facts with a measured
// cost, chosen by what the kernels are (ATen's Loops.cuh, SoftMax.cu), not by a benchmark's shape.
//  - Same-dtype contiguous operands take vectorized_elementwise_kernel: a stream at HBM speed
//    whatever the element size (the tile model's plain stream).
//  - A cast between dtypes takes unrolled_elementwise_kernel (each element cast through a switch
//    on its dtype), an operand broadcast along a dimension takes elementwise_kernel (an offset
//    calculator per element): both are bound by their instructions, not by HBM.
//  - softmax over rows too long for a warp's registers and short enough for a block's shared
//    memory (cunn_SoftMaxForwardSmem) reads each row once and is bound by its instructions too
//    (block reductions, exp, the division, conversions).
//  - A transposing copy (a strided operand: elementwise_kernel) reads each element from a line
//    of its own, which the L1 looks up and, missing, fills: ~2 of its tag stage's clocks per
//    element, from L2 as from HBM (scripts/measure/kernel_shapes_probe.py).
// Measured on an H100 by scripts/measure/elementwise_inflight.py (docs/calibration.md).

namespace hwsim {

class Config;

struct ElementwiseHabits {
  // gpu.elementwise.unvectorized_ops_per_element: FP32-pipe lane instructions per element of the
  // unvectorised kernels (a cast, a broadcast operand).
  double unvectorized_ops_per_element = 56;
  // gpu.elementwise.softmax_ops_per_element: the same for the shared-memory block softmax.
  double softmax_ops_per_element = 90;
  // gpu.elementwise.scattered_read_clocks: SM clocks per element a kernel reads from a line of its
  // own (a transpose's strided reads), overlapping its instructions.
  double scattered_read_clocks = 2;

  static ElementwiseHabits from_config(const Config& config);
};

}  // namespace hwsim
