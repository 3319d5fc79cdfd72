// gemm:M=..,N=..,K=..,dtype=.. — one matrix multiply out[M,N] = x[M,K] · W[N,K]ᵀ.
#include "sim/error.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

Workload build_gemm(const WorkloadSpec& spec) {
  GemmOp g;
  g.m = spec.positive_int("M");
  g.n = spec.positive_int("N");
  g.k = spec.positive_int("K");
  DType t = spec.dtype("dtype", DType::bf16);
  if (t == DType::int4)
    workload_error("workload '" + spec.text() + "': dtype: int4 is weight-only (use a decode or prefill "
                   "workload with weights=int4); valid here: bf16, fp16, fp32, tf32, fp8, int8");
  g.a = g.b = t;
  // fp8/int8 GEMMs write a wider result, as the libraries do (bf16 for fp8, int32 for int8).
  g.out = t == DType::fp8 ? DType::bf16 : t == DType::int8 ? DType::fp32 : t;
  spec.reject_unused({"M", "N", "K", "dtype"});
  Workload w;
  w.steps.push_back(WorkloadStep{"gemm", {}});
  add_op(w.steps.back().graph, Op{"gemm", "gemm", g});
  return w;
}

HWSIM_REGISTER_WORKLOAD("gemm", "one matrix multiply out = x·Wᵀ: M, N, K, dtype=bf16|fp16|fp32|tf32|fp8|int8",
                        build_gemm);

}  // namespace
}  // namespace hwsim
