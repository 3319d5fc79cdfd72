// gemm:M=..,N=..,K=..,dtype=..,acc=..,repeat=.. — matrix multiplies out[M,N] = x[M,K] · W[N,K]ᵀ.
#include "sim/error.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

// The result dtype a library writes for inputs of dtype t: fp8/fp6/fp4 GEMMs write bf16 (cuBLASLt,
// CUTLASS's block-scaled kernels), int8 GEMMs int32; otherwise the input dtype.
DType result_dtype(DType t) {
  if (t == DType::fp8 || t == DType::fp6 || t == DType::fp4) return DType::bf16;
  return t == DType::int8 ? DType::fp32 : t;
}

// acc=fp32 (the default, as cuBLAS computes) or fp16: half-precision accumulate, which tensor
// cores offer for fp16 and fp8 inputs only (PTX mma: f16 accumulators for .f16 and .e4m3/.e5m2).
DType accumulate_dtype(const WorkloadSpec& spec, DType t) {
  DType acc = spec.dtype("acc", DType::fp32);
  if (acc != DType::fp32 && acc != DType::fp16)
    workload_error("workload '" + spec.text() + "': acc: " + std::string(dtype_name(acc)) +
                   " is not an accumulate dtype; valid: fp32, fp16");
  if (acc == DType::fp16 && t != DType::fp16 && t != DType::fp8)
    workload_error("workload '" + spec.text() + "': acc: fp16 accumulate needs dtype=fp16 or fp8 (tensor cores sum " +
                   std::string(dtype_name(t)) + " products in fp32); use acc=fp32");
  return acc;
}

// Calls of one gemm workload: enough for a benchmark loop to reach its steady clock, bounded so a
// typo cannot ask for millions of kernels.
constexpr std::int64_t kMaxRepeat = 10000;

Workload build_gemm(const WorkloadSpec& spec) {
  GemmOp g;
  g.m = spec.positive_int("M");
  g.n = spec.positive_int("N");
  g.k = spec.positive_int("K");
  DType t = spec.dtype("dtype", DType::bf16);
  if (t == DType::int4)
    workload_error("workload '" + spec.text() + "': dtype: int4 is weight-only (use a decode or prefill "
                   "workload with weights=int4); valid here: bf16, fp16, fp32, tf32, fp8, int8, fp6, fp4");
  g.a = g.b = t;
  g.out = result_dtype(t);
  g.acc = accumulate_dtype(spec, t);
  std::int64_t repeat = spec.positive_int("repeat", 1);
  if (repeat > kMaxRepeat)
    workload_error("workload '" + spec.text() + "': repeat: at most " + std::to_string(kMaxRepeat) + " calls");
  spec.reject_unused({"M", "N", "K", "dtype", "acc", "repeat"});
  Workload w;
  w.steps.push_back(WorkloadStep{"gemm", {}});
  // `repeat` calls one after another, each on buffers of its own (no tensor names, no edges): a
  // benchmark loop rotating buffer sets past the L2, as the measurements do.
  for (std::int64_t r = 0; r < repeat; ++r)
    add_op(w.steps.back().graph, Op{repeat > 1 ? "gemm#" + std::to_string(r) : "gemm", "gemm", g});
  return w;
}

HWSIM_REGISTER_WORKLOAD("gemm",
                        "one matrix multiply out = x·Wᵀ: M, N, K, dtype=bf16|fp16|fp32|tf32|fp8|int8|fp6|fp4, "
                        "acc=fp32|fp16 (fp16 accumulate: dtype fp16 or fp8), repeat=1 (calls one after another, each on "
                        "its own buffers)",
                        build_gemm);

}  // namespace
}  // namespace hwsim
