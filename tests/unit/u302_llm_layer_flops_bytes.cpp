// FLOPs and minimum bytes of one llama3_8b decode layer (batch 1, context 512, bf16) against
// hand arithmetic: h = 4096, H = 32, G = 8, D = 128, ffn = 14336, T = 1 token, 513 keys, 2 B/element.
#include <doctest/doctest.h>

#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("llm lowering: one llama3_8b decode layer's FLOPs and bytes match hand arithmetic") {
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=1,context=512,weights=bf16,kv=bf16,kernels=fused");
  const OpGraph& g = w.steps[0].graph;
  double flops = 0, bytes = 0;
  for (OpVertex v : execution_order(g)) {
    if (g[v].name.rfind("L0.", 0) != 0) continue;
    flops += op_flops(g[v]);
    bytes += op_min_bytes(g[v]);
  }
  const double h = 4096, H = 32, G = 8, D = 128, f = 14336, T = 1, kv = 513, e = 2;
  const double qkv_n = (H + 2 * G) * D;  // 6144

  double gemm_flops = 2 * T * (qkv_n * h + h * (H * D) + 2 * f * h + h * f);
  double attention_flops = 4 * 1 * H * D * kv;               // QKᵀ and PV over 513 keys
  double norm_flops = 2 * 4 * T * h;                         // two rmsnorms, 4 FLOP/element
  double rope_flops = 3 * T * (H + G) * D;
  double residual_flops = 2 * T * h;
  double silu_mul_flops = 5 * T * f;
  CHECK(flops == doctest::Approx(gemm_flops + attention_flops + norm_flops + rope_flops + residual_flops + silu_mul_flops));

  auto gemm_bytes = [&](double m, double n, double k) { return e * (m * k + n * k + m * n); };
  double gemms = gemm_bytes(T, qkv_n, h) + gemm_bytes(T, h, H * D) + gemm_bytes(T, 2 * f, h) + gemm_bytes(T, h, f);
  double attention = 2 * 1 * H * T * D * e + 2 * 1 * G * kv * D * e;  // Q and O, K and V
  double norms = 2 * (T * h * e + h * e + T * h * e);                 // x, γ in; y out
  double rope = (T * (H + G) * D * e + 2 * T * D * e) + T * (H + G) * D * e;  // q,k + cos,sin in; q,k out
  double kv_append = 2 * (T * 2 * G * D * e);
  double residuals = 2 * 3 * T * h * e;
  double silu_mul = 3 * T * f * e;
  CHECK(bytes == doctest::Approx(gemms + attention + norms + rope + kv_append + residuals + silu_mul));
}
