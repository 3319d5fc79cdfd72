#pragma once
// One op of a step → the work the CPU runs (pure, deterministic), as CPU frameworks run it:
// - a GEMM as oneDNN/OpenBLAS block it (cpu_gemm.cpp): B panels of kc x nc in half the L3, A blocks
//   of mc x kc in half an L2, C accumulated across K in registers (oneDNN's batch-reduce GEMM) and
//   written once; M of at least the matrix unit's tile rows on AMX/SME, else the SIMD unit; fewer
//   rows than the microkernel's a GEMV (llama.cpp's vec_dot). Weight-only int4/int8 are llama.cpp's
//   Q4_0/Q8_0 (block scales counted) with the activations quantised to int8: int8 dot products.
// - an elementwise or norm pass as a stream over L3 (when its bytes fit half of it: the activations
//   the previous op wrote are still there) or DRAM;
// - attention as llama.cpp's CPU path: QK^T and PV dot products over the KV cache (from L3 when it
//   fits half of it, else DRAM), GEMV-like for one query row, GEMM-like for many; the fp32 scores
//   materialised (no flash attention), their passes at L3 or DRAM by the same rule.
// Arithmetic and the bytes at L3 and DRAM overlap on the machine (cpu_machine). min_bytes: what
// must cross DRAM as lowered (activations resident in L3 excluded), so a record's roofline is DRAM's.
#include <string>

#include "models/cpu/cpu_chip.h"
#include "ops/op.h"

namespace hwsim {

// The fraction of a cache the blocking's packed panels (and activations kept resident) may fill: the
// other half holds what streams through it (OpenBLAS and oneDNN size their blocks the same way).
inline constexpr double kCacheShare = 0.5;

struct CpuWork {
  std::string name, op_class, dtype, config, engine;  // engine: simd, amx, sme
  double flops = 0, min_bytes = 0;  // min_bytes: at DRAM
  double compute_seconds = 0;
  double l3_bytes = 0, dram_bytes = 0;
  double threads = 1;          // cores doing the arithmetic
  double peak_flop_rate = 0;   // of the engine, whole chip, for the math dtype
  double overhead = 0;         // seconds per op
};

// Throws UserError(workload) for an op the CPU cannot run (a collective, a recorded trace op).
CpuWork lower_cpu_op(const Op& op, const CpuChip& chip);

// The GEMM and the convolution (as im2col + GEMM) paths; cpu_gemm.cpp.
CpuWork lower_cpu_gemm(const GemmOp& g, const CpuChip& chip);

// The dtype the arithmetic runs in: int8 for llama.cpp's weight-only formats, else the operands'
// own when the SIMD unit has it, else fp32 (x86 converts fp16 to fp32 with F16C).
DType cpu_math_dtype(DType a, DType b, const CpuChip& chip);

}  // namespace hwsim
