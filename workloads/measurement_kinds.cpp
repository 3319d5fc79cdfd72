// Measurement kinds the workloads can reproduce (see shared/calibration/README.md).
#include <fmt/format.h>

#include "sim/measurement/measurement.h"
#include "ops/dtype.h"

namespace hwsim {
namespace {

// gemm: out[M,N] = x[M,K] · W[N,K]ᵀ
std::optional<PredictionPlan> gemm_plan(const Measurement& m) {
  auto M = record_whole(m, "M"), N = record_whole(m, "N"), K = record_whole(m, "K");
  auto name = record_text(m, "dtype");
  if (!M || !N || !K || !name) return std::nullopt;
  auto dtype = parse_dtype(*name);
  if (!dtype) return std::nullopt;
  return PredictionPlan{fmt::format("gemm:M={},N={},K={},dtype={}", *M, *N, *K, dtype_name(*dtype)), {}};
}

HWSIM_REGISTER_MEASUREMENT("gemm", "one cuBLAS-chosen matrix multiply: M, N, K, dtype", gemm_plan);

}  // namespace
}  // namespace hwsim
