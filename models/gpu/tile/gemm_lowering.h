#pragma once
// GEMM → one kernel of CTA tiles, chosen the way a library's heuristic would: enumerate tile
// shapes (and split-K factors for grids too small to fill the chip), predict each one's time with
// an analytic wave model, keep the fastest. The chosen kernel is then simulated.
#include <string>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/kernel.h"
#include "ops/op.h"

namespace hwsim {

struct GemmTiling {
  int bm = 0, bn = 0, bk = 0;  // CTA tile (bk: K elements per pipeline stage)
  int stages = 0;              // pipeline stages in shared memory
  int split_k = 1;             // CTAs sharing one output tile along K
  bool stream_k = false;       // persistent CTAs, one per slot, each taking an equal share of all
                               // tiles' K iterations (partial tiles fixed up through L2)
  int ctas_per_sm = 1;
  double predicted_seconds = 0;// analytic estimate used for the choice
  int vector_bytes = 16;       // how wide the kernel loads its inputs: 16 on the fast (TMA) path;
                               // the library's fallback for unaligned rows (gemm_alignment.h) loads
                               // as wide as x and W allow
};

// Every feasible candidate with its estimate, in a fixed order (deterministic).
std::vector<GemmTiling> gemm_candidates(const GemmOp& gemm, const GpuChip& chip);

// The fastest candidate (ties: the earlier one in candidate order).
GemmTiling choose_gemm_tiling(const GemmOp& gemm, const GpuChip& chip);

// Builds the kernel for `tiling`. `object_base` makes L2 object ids unique across kernels.
// `tensors` names the activation input x and the output for L2 reuse with neighbouring kernels.
Kernel lower_gemm(const GemmOp& gemm, const std::string& name, const GemmTiling& tiling,
                  const GpuChip& chip, std::int64_t object_base, TensorIds tensors = {});

// The L2 object holding weight panel (group, column tile j, K slice s) of the kernel lower_gemm
// builds with `tiling` and `object_base`: a kernel that writes the weights just before (a separate
// dequantisation) writes these objects, so the GEMM finds what still sits in L2.
std::int64_t gemm_weight_panel(const GemmOp& gemm, const GemmTiling& tiling, std::int64_t object_base,
                               std::int64_t group, std::int64_t j, std::int64_t split);

// The math dtype a GEMM runs in, and the SM FLOP rate (efficiency applied) for it; `tma` false:
// the fallback kernels' mma.sync rate (chip.paths.mma_sync_fraction).
DType gemm_math_dtype(const GemmOp& gemm);
double gemm_sm_flop_rate(const GemmOp& gemm, const GpuChip& chip, bool tma = true);

}  // namespace hwsim
