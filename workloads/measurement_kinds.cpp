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
  // scale: per-block scales of fp8 operands (block: 1x128 x 128x128, mx: MXFP8); absent, "none",
  // "tensor" or "row": one scale per tensor or per row/column, applied in the epilogue.
  std::string scale = record_text(m, "scale").value_or("none");
  if (scale == "tensor" || scale == "row") scale = "none";
  std::string spec = fmt::format("gemm:M={},N={},K={},dtype={}", *M, *N, *K, dtype_name(*dtype));
  if (scale != "none") spec += ",scale=" + scale;
  return PredictionPlan{spec, {}};
}

HWSIM_REGISTER_MEASUREMENT("gemm", "one cuBLAS-chosen matrix multiply: M, N, K, dtype, scale (none|block|mx)", gemm_plan);

}  // namespace
}  // namespace hwsim
