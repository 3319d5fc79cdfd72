// GEMM on a CPU, blocked as oneDNN and OpenBLAS do (Goto's algorithm), and the engine that runs it.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/cpu/cpu_lowering.h"

namespace hwsim {
namespace {

struct Engine {
  std::string name;
  double rate = 0;   // multiply-adds per second, the threads that run it
  double peak = 0;   // FLOP/s of the engine, the whole chip
  bool matrix = false;
};

Engine pick_engine(const GemmOp& g, DType math, const CpuChip& chip) {
  double threads = chip.active_cores();
  double matrix_macs = chip.matrix.macs_per_cycle[std::size_t(math)];
  if (chip.matrix.present() && matrix_macs > 0 && double(g.m) >= chip.matrix.min_rows) {
    double units = std::min(chip.matrix.units, threads);
    return {chip.matrix.kind, matrix_macs * units * chip.clock_hz, chip.matrix_peak_flop_rate(math), true};
  }
  return {"simd", chip.simd_macs_per_cycle(math) * chip.clock_hz * threads, chip.simd_peak_flop_rate(math), false};
}

}  // namespace

DType cpu_math_dtype(DType a, DType b, const CpuChip& chip) {
  bool weight_only = bytes_per_element(b) < bytes_per_element(a);
  if (weight_only && (b == DType::int4 || b == DType::int8)) return DType::int8;
  DType t = bytes_per_element(a) >= bytes_per_element(b) ? a : b;
  if (chip.simd_macs_per_cycle(t) > 0 || chip.matrix.macs_per_cycle[std::size_t(t)] > 0) return t;
  return DType::fp32;
}

// Blocking: kc = min(K, cpu.gemm.kc); B panels of kc x nc fill half the L3, A blocks of mc x kc
// half an L2. B is read from DRAM once; each mc block reads the packed B panel from L3; A is read
// once per nc panel; C is written once. Activations (A, C) that fit half the L3 stay there.
CpuWork lower_cpu_gemm(const GemmOp& g, const CpuChip& chip) {
  CpuWork w;
  DType math = cpu_math_dtype(g.a, g.b, chip);
  double groups = double(g.groups), m = double(g.m), n = double(g.n), k = double(g.k);
  double wbpe = chip.weight_bytes_per_element(g.b, g.a), abpe = bytes_per_element(g.a);
  double weights = n * k * groups * wbpe, act = m * k * groups * abpe, out = m * n * groups * bytes_per_element(g.out);
  double kc = std::min(k, chip.gemm_kc);
  double nc = std::max(1.0, std::floor(chip.l3_bytes * kCacheShare / (kc * wbpe)));
  double mc = std::max(1.0, std::floor(chip.l2_bytes * kCacheShare / (kc * abpe)));
  double a_reads = act * std::ceil(n / nc);
  bool act_in_l3 = act + out <= chip.l3_bytes * kCacheShare;
  w.dram_bytes = weights + (act_in_l3 ? 0 : a_reads + out);
  w.l3_bytes = weights * std::ceil(m / mc) + (act_in_l3 ? a_reads + out : 0);
  Engine e = pick_engine(g, math, chip);
  bool gemv = m < chip.microkernel_rows;
  double efficiency = e.matrix ? chip.matrix.efficiency : gemv ? chip.gemv_efficiency : chip.gemm_efficiency;
  w.flops = 2 * m * n * k * groups;
  w.compute_seconds = e.rate > 0 ? w.flops / 2 / (e.rate * efficiency) : 0;  // FLOPs / 2 = multiply-adds
  w.min_bytes = weights + (act_in_l3 ? 0 : act + out);  // what must cross DRAM as lowered
  w.engine = e.name;
  w.peak_flop_rate = e.peak;
  w.threads = chip.active_cores();
  w.dtype = std::string(dtype_name(math));
  w.config = fmt::format("{} {} on {}, {} B/weight, kc {} nc {} mc {}{}", gemv ? "gemv" : "gemm", dtype_name(math), e.name,
                         wbpe, kc, nc, mc, act_in_l3 ? ", activations in L3" : "");
  return w;
}

}  // namespace hwsim
