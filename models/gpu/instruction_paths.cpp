#include "models/gpu/instruction_paths.h"

#include "sim/config/config.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration instruction_path_params({"gpu"}, {
    fraction_param("gpu.sm.mma_sync_fraction",
                   "fraction of the tensor-core rate that warp-level mma.sync kernels (Ampere-style: FlashAttention-2, "
                   "memory-efficient attention, tinygemm, unaligned-operand GEMMs) reach; 1 where the chip has no "
                   "separate warpgroup (wgmma) path")
        .defaults_to("1"),
    real_param("gpu.sm.lsu_lanes_per_clock",
               "lane accesses the SM's load/store units serve per clock (global loads and shared-memory stores "
               "together); limits kernels that cannot use TMA. Fitted on the H100 (one unaligned bf16 GEMM): 8, a "
               "warp-wide access every four clocks; other chips carry it")
        .defaults_to("8"),
    real_param("gpu.sm.issue_lanes_per_clock",
               "lane instructions the SM's warp schedulers issue per clock (schedulers x 32 lanes): the rate of "
               "kernels bound by a mix of instructions (PyTorch's block softmax, unvectorised elementwise kernels), "
               "whose per-element counts are fitted on the H100; 0 = the FP32 FMA lanes (flops_per_clock.fp32 / 2), "
               "equal to it on Hopper and Ada")
        .defaults_to("0")
        .zero_allowed()
        .at_most(4096),
    real_param("gpu.sm.exp_per_clock",
               "exponentials (MUFU.EX2, exp2f) the SM's special-function units return per clock: 16 on compute "
               "capability 8.x-10.x (CUDA C++ Programming Guide, arithmetic instruction throughput). A flash "
               "attention kernel's main loop takes one per score, so it runs no faster than 4 x head_dim x this many "
               "tensor FLOPs per clock")
        .defaults_to("16"),
});

}  // namespace

SmInstructionPaths SmInstructionPaths::from_config(const Config& c) {
  SmInstructionPaths p;
  p.mma_sync_fraction = c.number("gpu.sm.mma_sync_fraction");
  p.lsu_lanes_per_clock = c.number("gpu.sm.lsu_lanes_per_clock");
  p.issue_lanes_per_clock = c.number("gpu.sm.issue_lanes_per_clock");
  p.exp_per_clock = c.number("gpu.sm.exp_per_clock");
  return p;
}

}  // namespace hwsim
