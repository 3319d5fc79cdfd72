#pragma once
// The typed description of a microcontroller (kind "mcu"), built once from a validated Config
// (parameters declared in mcu_chip.cpp with units, sources in the chip files). The lowering, the
// memory plan and the machine read this struct, never the config.
//
// An Arm Cortex-M core at `clock_hz` runs CMSIS-NN kernels with its SIMD (M4/M7: SMLAD, two 16-bit
// MACs per instruction; M55/M85: Helium MVE, 128-bit vectors in two beats); an optional Ethos-U NPU
// (Vela's cycle model: micro-blocks of OFM elements, IFM blocks of 32 channels) runs what it
// supports with its own DMA over AXI. Memories: tightly coupled / on-chip SRAM (the activation
// arena, and the weights when they fit beside it), on-chip flash (the weights otherwise), optional
// external memory, an optional data cache in front of flash for the core.
#include <array>
#include <cmath>
#include <string>

#include "ops/dtype.h"

namespace hwsim {

class Config;

struct McuMemory {
  double bytes = 0;      // capacity (0: absent)
  double bandwidth = 0;  // bytes/s
  double latency = 0;    // seconds, first access
  double joules_per_byte = 0;
  bool present() const { return bytes > 0; }
};

// Where the weights go: auto = SRAM when they fit beside the activation arena, else flash, else
// external memory; sram / flash = there (refused when they do not fit).
enum class WeightPolicy { automatic, sram, flash };

struct NpuSpec {
  double macs_per_cycle = 0;           // 0: no NPU
  double clock_hz = 0;
  int ublock_h = 0, ublock_w = 0, ublock_depth = 0;  // OFM micro-block (Vela: 2x2x8 on U55-256)
  int ifm_block_depth = 0;             // IFM channels one micro-block step consumes (32)
  double weight_decode_cycles = 0;     // least cycles per micro-block-depth step (weight decoder)
  int depthwise_kernel_step = 0;       // kernel elements per depthwise step (4)
  double output_cycles_per_element = 0;       // requantise + activation + write, conv/pool
  double elementwise_cycles_per_element = 0;  // binary elementwise (add)
  double softmax_passes = 0;           // elementwise passes of Vela's int8 softmax
  int max_stride = 0, max_kernel = 0;  // Vela's operator constraints
  bool softmax = true;                 // runs int8 softmax
  double op_overhead_cycles = 0;       // per operator: command stream, DMA set-up
  double invoke_overhead = 0;          // seconds per inference: driver start, cache maintenance, IRQ
  double axi_bandwidth = 0;            // bytes/s per AXI port (the DMA's cap)
  bool present() const { return macs_per_cycle > 0; }
  // Cycles of one micro-block step over one IFM block: ublock elements × IFM depth / MACs per cycle.
  double ublock_step_cycles() const {
    return double(ublock_h) * ublock_w * ublock_depth * ifm_block_depth / macs_per_cycle;
  }
};

// How the core reads weights that live in flash: a miss fetches `line_bytes` (the data cache's line,
// or the flash word where no cache sits in front) as line/word flash reads, each `wait_states` cycles
// longer than a zero-wait access, plus `miss_overhead_cycles` of bus round trip. An in-order core
// (Cortex-M, no data prefetcher) stalls for all of it: the stall adds to the kernel's cycles.
struct FlashFetch {
  double wait_states = 0;         // flash wait states at the core clock (datasheet table)
  double word_bytes = 16;         // bytes one flash read returns
  double line_bytes = 32;         // bytes one miss fetches
  double miss_overhead_cycles = 0;
  double stall_cycles_per_byte() const {
    return line_bytes > 0 ? (std::ceil(line_bytes / word_bytes) * wait_states + miss_overhead_cycles) / line_bytes : 0;
  }
};

struct McuChip {
  std::string name;
  std::string core;                    // "m4", "m7", "m33", "m55", "m85"
  double clock_hz = 0;
  std::array<double, kDTypeCount> macs_per_cycle{};  // core SIMD peak by dtype; 0 = unsupported
  double simd_ops_per_cycle = 0;       // int8 elementwise lanes per cycle
  double cmsis_efficiency = 1;         // fraction of the SIMD MAC peak CMSIS-NN conv/FC kernels sustain
  double cmsis_depthwise_efficiency = 1;
  double cmsis_pointwise_efficiency = 1;  // 1x1 stride-1 convs (no im2col)
  double cmsis_fc_efficiency = 1;         // fully connected (vector x matrix: each weight used once)
  double cmsis_shallow_efficiency = 0;   // conv with one input channel per group: scalar path (0: as others)
  double cmsis_output_cycles = 0;         // per output element of a MAC op: bias, requantise, clamp, store
  double pixels_per_weight_pass = 1;   // output pixels CMSIS-NN computes per pass over the filters
  double cpu_op_overhead_cycles = 0;   // per operator: interpreter, kernel set-up
  double dcache_bytes = 0;             // data cache in front of flash (0: none)
  McuMemory sram, flash, ext;
  FlashFetch flash_fetch;
  WeightPolicy weights = WeightPolicy::automatic;
  NpuSpec npu;
  double run_watts = 0, sleep_watts = 0;  // core running / waiting (WFI) with the clocks on
  double npu_joules_per_mac = 0;

  static McuChip from_config(const Config& config);

  bool supports(DType t) const { return macs_per_cycle[std::size_t(t)] > 0; }
  double cpu_peak_flop_rate(DType t) const { return 2 * macs_per_cycle[std::size_t(t)] * clock_hz; }
  double npu_peak_flop_rate() const { return 2 * npu.macs_per_cycle * npu.clock_hz; }
};

}  // namespace hwsim
