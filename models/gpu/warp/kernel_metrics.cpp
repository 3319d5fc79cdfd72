#include "models/gpu/warp/kernel_metrics.h"

#include <algorithm>

#include "models/gpu/power/gpu_energy.h"

namespace hwsim::warp {
namespace {

// FLOPs per active lane of one instruction, Nsight Compute's convention: add, sub, mul count 1,
// fma (and f32 mad) 2; a pair type (f16x2, bf16x2) does two. Everything else counts 0.
double flops_per_lane(const Instr& in) {
  int per = in.type == Type::f32 ? 1 : (in.type == Type::f16x2 || in.type == Type::bf16x2) ? 2 : 0;
  switch (in.op) {
    case Op::add: case Op::sub: case Op::mul: return per;
    case Op::fma: case Op::mad: return 2.0 * per;
    default: return 0;
  }
}

constexpr double kMmaFlops = 2.0 * 16 * 8 * 16;  // mma.m16n8k16: 2048 multiply-adds per warp

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

void derive_traffic(const KernelRun& r, KernelMetrics& m) {
  const MemoryStats& s = r.memory_stats;
  const GpuChip& c = r.chip;
  const double sector = r.sector_bytes;
  auto level = [&](const char* name, const char* label, double bytes, double peak) {
    LevelTraffic t{name, label, bytes, 0, peak, 0};
    t.bandwidth = ratio(t.bytes, m.kernel_seconds);
    t.percent_of_peak = 100 * ratio(t.bandwidth, peak);
    m.traffic.push_back(t);
  };
  level("l1", "L1 (requested by warps)", double(s.sectors) * sector * m.scale, r.l1_bytes_per_cycle * c.clock_hz * c.sm_count);
  level("l2", "L2 (L1 misses and stores)", double(s.sectors - s.l1_hit_sectors) * sector * m.scale, c.l2_bandwidth);
  // DRAM: the sectors read (in whole DRAM accesses) and the sectors written back. A sample's
  // counts scale to the grid, except that buffers fitting the L2 are read and written back at
  // most once whatever the grid: a line every block reads (a matmul's B) is fetched once, not
  // once per sample-sized share of the grid.
  double reads = double(s.dram_sectors) * sector * m.scale, writes = double(s.store_sectors) * sector * m.scale;
  if (m.sampled && r.buffers_fit_l2) reads = std::min(reads, r.buffer_bytes), writes = std::min(writes, r.buffer_bytes);
  level("dram", "DRAM", reads + writes, c.hbm_bandwidth);
  m.dram_usable = c.usable_hbm_bandwidth();
  m.l2_store_sectors = s.store_sectors;
  m.l2_load_sectors = s.sectors - s.l1_hit_sectors - s.store_sectors;
  double load_hits = double(s.l2_hit_sectors - s.l2_hits_own_fetch);
  m.l2_load_hit_rate = ratio(load_hits, double(m.l2_load_sectors));
  m.l2_hit_rate = ratio(load_hits + double(s.store_sectors), double(m.l2_load_sectors + s.store_sectors));
}

void derive_roofline(const KernelRun& r, KernelMetrics& m) {
  const GpuChip& c = r.chip;
  m.flop_rate = ratio(m.flops, m.kernel_seconds);
  m.peak_flop_rate = c.peak_flop_rate(m.tensor_flops > m.flops / 2 ? DType::fp16 : DType::fp32);
  const double dram_bytes = m.traffic.back().bytes;
  m.ridge_point = ratio(m.peak_flop_rate, c.hbm_bandwidth);
  if (m.flops <= 0) return;
  m.arithmetic_intensity = ratio(m.flops, dram_bytes);
  m.roof = dram_bytes > 0 ? std::min(m.peak_flop_rate, m.arithmetic_intensity * c.hbm_bandwidth) : m.peak_flop_rate;
  m.percent_of_roof = 100 * ratio(m.flop_rate, m.roof);
  m.bound = dram_bytes > 0 && m.arithmetic_intensity < m.ridge_point ? "memory" : "compute";
}

void derive_energy(const KernelRun& r, KernelMetrics& m) {
  const GpuChip& c = r.chip;
  double busy_sm_seconds = r.stats.sm_busy_cycles * m.scale / c.clock_hz;
  // The chip's power model (models/gpu/power) at the kernel's clock: tensor work as fp16 MMA, the
  // rest as fp32 CUDA-core FLOPs.
  GpuActivity a;
  a.seconds = r.seconds;
  a.busy_sm_seconds = busy_sm_seconds;
  a.flops[std::size_t(DType::fp16)] = m.tensor_flops;
  a.flops[std::size_t(DType::fp32)] = m.flops - m.tensor_flops;
  a.l2_bytes = m.traffic[1].bytes, a.hbm_bytes = m.traffic[2].bytes;
  m.energy = gpu_energy(c.power, a, r.clock_hz).total();
  m.average_power = ratio(m.energy, r.seconds);
}

}  // namespace

KernelMetrics kernel_metrics(const KernelRun& r) {
  KernelMetrics m;
  const KernelStats& s = r.stats;
  m.sampled = s.sms_simulated < r.sm_count && s.ctas_simulated < r.grid;
  m.scale = m.sampled ? double(r.grid) / double(std::max<std::uint64_t>(1, s.ctas_simulated)) : 1.0;
  m.kernel_seconds = ratio(double(s.cycles), r.clock_hz);
  m.warp_instructions = double(s.warp_instructions) * m.scale;
  m.thread_instructions = double(s.thread_instructions) * m.scale;
  for (std::size_t pc = 0; pc < s.pcs.size(); ++pc) {
    const Instr& in = r.program.code[pc];
    if (in.op == Op::mma) m.tensor_flops += double(s.pcs[pc].issued) * kMmaFlops;
    else m.flops += double(s.pcs[pc].lanes) * flops_per_lane(in);
  }
  m.tensor_flops *= m.scale;
  m.flops = m.flops * m.scale + m.tensor_flops;
  derive_traffic(r, m);
  derive_roofline(r, m);
  derive_energy(r, m);
  return m;
}

}  // namespace hwsim::warp
