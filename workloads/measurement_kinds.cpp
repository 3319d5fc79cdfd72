// Measurement kinds the workloads can reproduce (see shared/calibration/README.md).
#include <fmt/format.h>

#include "app/validate/measurement.h"
#include "ops/dtype.h"

namespace hwsim {
namespace {

std::optional<std::int64_t> whole(const nlohmann::json& r, const char* key) {
  if (!r.contains(key) || !r[key].is_number()) return std::nullopt;
  return r[key].get<std::int64_t>();
}

// gemm: out[M,N] = x[M,K] · W[N,K]ᵀ
std::optional<PredictionPlan> gemm_plan(const Measurement& m) {
  auto M = whole(m.fields, "M"), N = whole(m.fields, "N"), K = whole(m.fields, "K");
  if (!M || !N || !K || !m.fields.contains("dtype")) return std::nullopt;
  auto dtype = parse_dtype(m.fields["dtype"].get<std::string>());
  if (!dtype) return std::nullopt;
  return PredictionPlan{fmt::format("gemm:M={},N={},K={},dtype={}", *M, *N, *K, dtype_name(*dtype)), {}};
}

HWSIM_REGISTER_MEASUREMENT("gemm", gemm_plan);

}  // namespace
}  // namespace hwsim
