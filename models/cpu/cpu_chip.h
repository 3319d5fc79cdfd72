#pragma once
// The typed description of a CPU (kind "cpu"), built once from a validated Config (parameters
// declared in cpu_chip.cpp with units; sources in the chip files). The lowering and the machine
// read this struct, never the config.
//
// `cores` cores at the all-core `clock_hz`, `threads` of them running the framework's thread pool
// (llama.cpp -t, OMP_NUM_THREADS). Each core has a SIMD unit (`simd_bits` wide, `fma_pipes` FMA
// pipes; per dtype the multiply-adds one 32-bit lane does per instruction: fp32 1, bf16 2 with
// VDPBF16PS/BFDOT, int8 4 with VNNI/SDOT) and optionally shares a matrix unit (Intel AMX: one per
// core; Apple/Arm SME: one per cluster) with its own MACs per cycle per dtype. Caches: private L1
// and L2 per core, a shared L3 (the blocking's budget, and the level small activations live in),
// then DRAM channels. A single core can only keep so many misses in flight: `core_bandwidth` caps
// what one thread streams from DRAM, so few threads cannot reach the channels' bandwidth.
#include <array>
#include <string>

#include "ops/dtype.h"

namespace hwsim {

class Config;

struct CpuMatrixUnit {
  std::string kind = "none";                          // none, amx, sme
  double units = 0;                                   // matrix units on the chip (AMX: cores)
  std::array<double, kDTypeCount> macs_per_cycle{};   // per unit, at the core clock; 0 = unsupported
  double min_rows = 0;  // fewest activation rows (M) for which the framework uses the unit
  double efficiency = 1;  // fraction of the unit's peak the framework's GEMM sustains
  bool present() const { return kind != "none" && units > 0; }
};

struct CpuChip {
  std::string name;
  std::string isa;                 // avx2, avx512, neon, sve (what simd_bits means)
  double cores = 0, threads = 0;   // threads: the framework's pool (<= 2 x cores with SMT)
  double clock_hz = 0;             // all-core clock under vector load
  double simd_bits = 0, fma_pipes = 0;
  std::array<double, kDTypeCount> macs_per_lane{};  // per 32-bit lane per FMA instruction; 0 = none
  CpuMatrixUnit matrix;
  double l1_bytes = 0, l2_bytes = 0;  // per core
  double l3_bytes = 0, l3_bandwidth = 0, l3_latency = 0;  // shared; bytes/s over all cores
  double dram_bytes = 0, dram_bandwidth = 0, dram_latency = 0;  // peak: channels x channel rate
  double dram_channels = 0;
  double dram_efficiency = 1;      // fraction of the peak all cores together sustain (STREAM-like)
  double core_bandwidth = 0;       // bytes/s one core streams from DRAM (its miss queue's limit)
  double cluster_cores = 0;        // cores sharing one port into the fabric (an Apple cluster, a Zen CCD)
  double cluster_bandwidth = 0;    // bytes/s through one cluster's port (0: no such limit)
  double gemm_efficiency = 1;      // fraction of the SIMD/matrix peak a blocked GEMM's microkernel sustains
  double gemv_efficiency = 1;      // the same for a matrix-vector product (M below the microkernel's rows)
  double stream_efficiency = 1;    // fraction of the fp32 SIMD peak an elementwise pass sustains
  double gemm_kc = 256;            // the blocking's K panel depth (oneDNN/OpenBLAS GEMM_Q)
  double microkernel_rows = 4;     // M rows of the register microkernel (the GEMV/GEMM boundary)
  double quant_block = 32, quant_scale_bytes = 2;  // llama.cpp Q4_0/Q8_0: 32 weights + an fp16 scale
  double op_overhead = 0;          // seconds per op: the thread pool's dispatch and barrier
  double idle_watts = 0, core_watts = 0, tdp_watts = 0;  // package idle, per active core, limit
  double dram_joules_per_byte = 0;

  static CpuChip from_config(const Config& config);

  double active_cores() const { return threads < cores ? threads : cores; }
  // Multiply-adds per cycle of one core's SIMD unit in dtype t (0: unsupported).
  double simd_macs_per_cycle(DType t) const {
    return simd_bits / 32 * fma_pipes * macs_per_lane[std::size_t(t)];
  }
  double simd_peak_flop_rate(DType t) const { return 2 * simd_macs_per_cycle(t) * clock_hz * cores; }
  double matrix_peak_flop_rate(DType t) const {
    return matrix.present() ? 2 * matrix.macs_per_cycle[std::size_t(t)] * matrix.units * clock_hz : 0;
  }
  // DRAM bytes/s `threads_used` threads can draw, before the channels' own limit: their cores' miss
  // queues, and the ports of the clusters they run on (the scheduler spreads threads over clusters).
  double threads_dram_cap(double threads_used) const;
  // ... and with the channels' achievable rate.
  double dram_rate(double threads_used) const;
  // Bytes per weight of a weight-only format as llama.cpp stores it (Q4_0: 18 B per 32, Q8_0: 34 B
  // per 32); other formats their dtype's bytes.
  double weight_bytes_per_element(DType weights, DType activations) const;
};

}  // namespace hwsim
