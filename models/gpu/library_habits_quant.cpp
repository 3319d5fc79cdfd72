#include "models/gpu/library_habits_quant.h"

#include "sim/config/config.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration quant_habit_params({"gpu"}, {
    choice_param("gpu.quant.fused_kernel", {"tinygemm", "marlin"},
                 "fused weight-only GEMM kernel (dequant=fused): tinygemm (PyTorch _weight_int4pack_mm: 16x8 tiles, "
                 "whole K per CTA) or marlin (vLLM: 64-row passes, K striped over the SMs)")
        .defaults_to("tinygemm"),
});

}  // namespace

FusedQuantKernel fused_quant_kernel(const std::string& name) {
  FusedQuantKernel k;
  k.name = name;
  if (name == "marlin") {
    // Marlin: thread_m_blocks ≤ 4 (64 rows), thread_n 256, thread_k 64, 4 pipeline stages;
    // lop3 magic-number conversion and one fma per pair of weights.
    k.m_tile = 64, k.n_tile = 256, k.k_step = 64, k.threads = 256, k.stages = 4, k.stripe_k = true;
    k.dequant_ops_per_weight = 1.0;
    k.activation_bytes_per_clock = 128;  // cp.async of whole lines
    return k;
  }
  // tinygemm: kMTileSize 16, kNTileSize 8, 8 warps each loading 8 k-tiles of 16 (128 K) per step;
  // per 8 weights 4 lop3 (int4 → bf16 with the magic bias), 4 fma.bf16x2 (bias), 4 hfma2 (scale, zero).
  k.m_tile = 16, k.n_tile = 8, k.k_step = 128, k.threads = 256, k.stages = 1, k.stripe_k = false;
  k.dequant_ops_per_weight = 1.5;
  k.activation_bytes_per_clock = 16;  // 32-bit fragment loads: 16 bytes from each of 8 lines per access
  return k;
}

QuantHabits QuantHabits::from_config(const Config& c) {
  QuantHabits h;
  h.fused = fused_quant_kernel(c.text("gpu.quant.fused_kernel"));
  h.simt_loop.l1_lines_per_clock = c.number("memory.l1.lines_per_cycle");
  h.simt_loop.l1_latency_clocks = c.number("memory.l1.latency");
  h.simt_loop.fp32_latency_clocks = c.number("gpu.warp.latency.fp32");
  h.simt_loop.line_bytes = c.number("memory.l1.line_bytes");
  h.simt_loop.sector_bytes = c.number("memory.l1.sector_bytes");
  return h;
}

}  // namespace hwsim
