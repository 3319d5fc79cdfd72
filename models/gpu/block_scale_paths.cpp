#include "models/gpu/block_scale_paths.h"

#include "sim/config/config.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration block_scale_params({"gpu"}, {
    bool_param("gpu.sm.mx_block_scale",
               "the tensor cores apply OCP MX block scales (one E8M0 scale per 32 elements along K) inside the MMA "
               "(Blackwell tcgen05.mma kind::mxf8f6f4), so MXFP8 GEMMs run at the fp8 rate; false: the kernel "
               "promotes each block's partial sums on the CUDA cores (Hopper)")
        .defaults_to("false"),
    real_param("gpu.tile.block_scale_overlap",
               "fraction (0-1) of a block-scaled fp8 GEMM's CUDA-core promotion work (one FFMA per accumulator "
               "element per scale block) hidden behind the other warpgroup's tensor-core MMAs; the rest adds to "
               "the main loop. Fitted on one H200 record (cuBLASLt 1x128 x 128x128 fp8 at 4096x4096x7168, "
               "data/measurements/h200_blockscaled.jsonl): 0, none hidden (the FFMAs share the warp schedulers and "
               "register file with the MMAs' issue); the other H200, DeepGEMM (H800) and FBGEMM (H100) records "
               "judge it; other chips carry it")
        .defaults_to("0")
        .zero_allowed()
        .at_most(1),
});

}  // namespace

BlockScalePaths BlockScalePaths::from_config(const Config& c) {
  BlockScalePaths p;
  p.mx_in_tensor_core = c.flag("gpu.sm.mx_block_scale");
  p.promotion_overlap = c.number("gpu.tile.block_scale_overlap");
  return p;
}

}  // namespace hwsim
