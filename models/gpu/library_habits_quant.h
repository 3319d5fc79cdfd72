#pragma once
// Weight-only quantised GEMM kernels (int4, int8, fp8 weights with 16-bit activations) as a GPU's
// software stack ships them: software facts, chosen by gpu.quant.fused_kernel.
//  - tinygemm: PyTorch's _weight_int4pack_mm (aten/src/ATen/native/cuda/int4mm.cu). One CTA of 8
//    warps per 16×8 output tile (m16n8k16 mma.sync), walking the whole K; the warps split K and sum
//    in shared memory. Every CTA re-reads its 16 activation rows and re-dequantises its weights, so
//    the weight traffic and the dequantisation grow with ceil(M/16) while the activation traffic
//    grows with N/8 · M. Its A fragments are loaded as 32-bit words straight into registers (the
//    m16n8k16 layout): one warp access takes 16 bytes from each of 8 rows, 8 lines, so the L1
//    passes 16 activation bytes a clock.
//  - marlin: vLLM's Marlin (IST-DASLab, 2024). Persistent CTAs, up to 64 activation rows per pass
//    held in shared memory, 256 weight columns per CTA, stripes of K spread over every SM, a
//    4-stage cp.async pipeline (16-byte copies, whole lines); weights stream from DRAM once per 64
//    rows.
#include <string>

namespace hwsim {

class Config;

struct FusedQuantKernel {
  std::string name;               // "tinygemm", "marlin"
  int m_tile = 16;                // activation rows one weight pass serves
  int n_tile = 8;                 // weight rows (output columns) per CTA
  int k_step = 128;               // K per pipeline step (Little's law: what a CTA keeps in flight)
  int threads = 256;
  int stages = 1;                 // K steps in flight
  bool stripe_k = false;          // true: K split so that every SM gets an equal share (Marlin)
  double dequant_ops_per_weight = 1.5;  // FP32/ALU-pipe lane instructions to unpack and scale one weight
  // Activation bytes one SM's L1 delivers per clock to this kernel's loads: it handles one 128-byte
  // line (a wavefront) per clock, and the kernel's access pattern decides how much of it is used.
  double activation_bytes_per_clock = 128;
};

// What one trip of a SIMT loop over L1-resident operands costs an SM (PyTorch's
// _weight_int8pack_mm: one thread per output, models/gpu/tile/int8pack_lowering.h), read from the
// warp model's parameters of the same hardware so both levels agree.
struct SimtLoopCosts {
  double l1_lines_per_clock = 1;   // memory.l1.lines_per_cycle: lines the L1 tag stage handles a clock
  double l1_latency_clocks = 33;   // memory.l1.latency: load-to-use on a hit
  double fp32_latency_clocks = 4;  // gpu.warp.latency.fp32: a dependent convert or FMA
  double line_bytes = 128;         // memory.l1.line_bytes
  double sector_bytes = 32;        // memory.l1.sector_bytes: what a miss fetches
};

struct QuantHabits {
  FusedQuantKernel fused;  // gpu.quant.fused_kernel
  SimtLoopCosts simt_loop;

  static QuantHabits from_config(const Config& config);
};

// The built-in kernel descriptions by name (tinygemm, marlin).
FusedQuantKernel fused_quant_kernel(const std::string& name);

}  // namespace hwsim
