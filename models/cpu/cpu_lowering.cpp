#include "models/cpu/cpu_lowering.h"

#include <algorithm>
#include <fmt/format.h>

#include "ops/conv.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// The level a working set of `bytes` is served from: L3 when it fits half of it (what the previous
// op wrote is still there), else DRAM.
void place(CpuWork& w, double bytes, const CpuChip& chip) {
  (bytes <= chip.l3_bytes * kCacheShare ? w.l3_bytes : w.dram_bytes) += bytes;
}

CpuWork lower_stream(const StreamOp& s, const CpuChip& chip) {
  CpuWork w;
  double bytes = s.bytes_read + s.bytes_written;
  place(w, bytes, chip);
  w.flops = s.flops;
  w.min_bytes = w.dram_bytes;
  w.threads = chip.active_cores();
  double rate = 2 * chip.simd_macs_per_cycle(DType::fp32) * chip.clock_hz * w.threads * chip.stream_efficiency;
  w.compute_seconds = rate > 0 ? s.flops / rate : 0;
  w.engine = "simd";
  w.dtype = "fp32";
  w.peak_flop_rate = chip.simd_peak_flop_rate(DType::fp32);
  w.config = fmt::format("stream of {} B from {}", bytes, w.dram_bytes > 0 ? "dram" : "l3");
  return w;
}

// Passes over llama.cpp's fp32 attention scores (without flash attention): KQ writes them, softmax
// reads and rewrites them, KQV reads them.
constexpr double kScorePasses = 4;

// llama.cpp's CPU attention: per (sequence, KV head) QK^T, softmax and PV over the cached keys,
// dot products in the KV cache's dtype where the SIMD unit has it (NEON fp16), else fp32; the
// scores materialised in fp32 (at L3 when they fit its share, else DRAM).
CpuWork lower_attention(const AttentionOp& a, const CpuChip& chip) {
  CpuWork w;
  double pairs = attention_pairs(a) * double(a.batch) * double(a.heads);
  double kv = double(a.batch) * double(a.kv_len) * double(a.kv_heads) * double(a.head_dim) * 2 *
              bytes_per_element(a.kv_dtype);
  double q_o = 2 * double(a.batch) * double(a.heads) * double(a.q_len) * double(a.head_dim) * bytes_per_element(a.dtype);
  place(w, kv, chip);
  place(w, q_o, chip);
  double scores = kScorePasses * pairs * bytes_per_element(DType::fp32);
  place(w, scores, chip);
  DType math = cpu_math_dtype(a.kv_dtype, a.kv_dtype, chip);
  w.threads = chip.active_cores();
  double efficiency = double(a.q_len) < chip.microkernel_rows ? chip.gemv_efficiency : chip.gemm_efficiency;
  double rate = chip.simd_macs_per_cycle(math) * chip.clock_hz * w.threads * efficiency;
  w.flops = 4 * pairs * double(a.head_dim);
  w.compute_seconds = rate > 0 ? w.flops / 2 / rate : 0;  // FLOPs / 2 = multiply-adds
  w.min_bytes = w.dram_bytes;
  w.engine = "simd";
  w.dtype = std::string(dtype_name(math));
  w.peak_flop_rate = chip.simd_peak_flop_rate(math);
  w.config = fmt::format("attention {} over {} keys, KV {} B from {}, scores {} B at {}", dtype_name(math), a.kv_len,
                         kv, kv <= chip.l3_bytes * kCacheShare ? "l3" : "dram", scores,
                         scores <= chip.l3_bytes * kCacheShare ? "l3" : "dram");
  return w;
}

// A convolution as im2col + GEMM (oneDNN's gemm-based convolution).
CpuWork lower_conv(const ConvOp& c, const std::string& name, const CpuChip& chip) {
  check_conv(c, name);
  return lower_cpu_gemm(conv_as_gemm(c), chip);
}

}  // namespace

CpuWork lower_cpu_op(const Op& op, const CpuChip& chip) {
  CpuWork w;
  if (const auto* g = std::get_if<GemmOp>(&op.shape)) w = lower_cpu_gemm(*g, chip);
  else if (const auto* s = std::get_if<StreamOp>(&op.shape)) w = lower_stream(*s, chip);
  else if (const auto* a = std::get_if<AttentionOp>(&op.shape)) w = lower_attention(*a, chip);
  else if (const auto* c = std::get_if<ConvOp>(&op.shape)) w = lower_conv(*c, op.name, chip);
  else workload_error(fmt::format("{}: op class '{}' does not run on a cpu device ({})", op.name, op.op_class, chip.name));
  if (!op.fused.empty()) {  // elementwise work fused into the op: its bytes beside the op's
    double before = w.dram_bytes;
    place(w, std::max(0.0, op.fused.extra_bytes_read + op.fused.extra_bytes_written), chip);
    w.flops += op.fused.vector_flops;
    w.min_bytes += w.dram_bytes - before;
  }
  w.name = op.name;
  w.op_class = op.op_class;
  w.overhead = chip.op_overhead;
  return w;
}

}  // namespace hwsim
