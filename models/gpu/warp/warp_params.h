#pragma once
// Typed parameters of the warp-level SM model, read once from Config (declared in warp_params.cpp).
// All latencies and intervals are in SM clock cycles.
#include <array>
#include <cstdint>
#include <string>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/warp/isa.h"

namespace hwsim {
class Config;
}

namespace hwsim::warp {

// The memory below the L2 (gpu.warp.dram_model; dram_model.h): the built-in DRAM model, or a
// TLM-2.0 socket to an external SystemC model the embedding program binds.
enum class DramModelKind : std::uint8_t { builtin, tlm };

struct WarpParams {
  GpuChip chip;
  DramModelKind dram_model = DramModelKind::builtin;
  bool gto = true;                     // warp scheduler: greedy-then-oldest, else loose round-robin
  int sub_partitions = 4;
  std::array<int, kPipes> latency{};   // result latency per pipe (lsu: shuffle latency)
  std::array<int, kPipes> interval{};  // initiation interval per pipe, per sub-partition
  // Tensor pipe (sm_core_tensor.cpp): an instruction of F FMAs per warp in element type e holds
  // its sub-partition's tensor pipe interval[tensor] × F / kTensorIntervalFmas × dtype_factor[e] /
  // share cycles; share is mma_sync_share for mma.sync, wgmma_share for wgmma.mma_async.
  static constexpr double kTensorIntervalFmas = 2048;  // interval[tensor] is one m16n8k16 f16 (16·8·16 FMAs)
  std::array<double, 5> tensor_dtype_factor{1, 1, 1, 1, 1};  // by MmaElem: the chip's f16 rate over its rate
  double mma_sync_share = 1, wgmma_share = 1;
  bool l2_merge = false;               // gpu.warp.l2_merge: same-sector L2 requests in flight merge (memory_system.cpp)
  double rf3_extra = 0;               // average extra issue cycles of an ALU instruction reading 3 distinct registers
  double event_timed_launch = 0;       // seconds: launch overhead of an event-timed single launch (0: the chip's)
  double graph_launch = 0;             // seconds: per launch replayed in a CUDA graph, beyond execution (0: the chip's)
  double dram_turnaround = 0;
  int hbm_latency_spread = 0;
  double dram_activation = 0;          // a row activation costs this many DRAM access times
  int dram_row_bytes = 1024, dram_banks = 1;
  int l2_partitions = 1;
  double write_drain_cycles = 0;       // extra read latency at 100 % DRAM write utilisation               // L2 partitions; far-homed lines are also cached near          // DRAM latency is uniform in mean +- this (cycles)          // DRAM efficiency lost at a 50/50 read/write mix (bus turnarounds)    // seconds an event-timed single launch adds over the (graph) launch overhead
  double dram_queue_cycles = 0;        // DRAM read queueing: + this · u/(1-u) at DRAM utilisation u
  double dram_queue_max_util = 0.85;   // u is capped here (finite controller queues)
  int branch_cycles = 0;               // a taken/divergent branch's extra issue delay
  int barrier_cycles = 0;              // from the last arrival to the release
  double atomic_line_cycles = 0;       // L2 performs atomics on one line one after another, this long each (0: no serialisation)
  double atomic_queue = 0;             // operations a line's atomic queue holds before the SM holds atomics back (0: unbounded)
  double atomic_word_cycles = 0;       // each further distinct address of a request on a line adds this to its time there
  double atomic_new_words_cycles = 0;  // the least a request takes on a line whose previous request touched other words
  int banks = 32, bank_bytes = 4;
  int shared_latency = 0, replay_cycles = 0, mio_queue = 0;
  int l1_latency = 0, l1_ways = 0, l1_lines_per_cycle = 1, lsu_queue = 0;
  int line_bytes = 128, sector_bytes = 32;
  int l2_latency = 0, l2_ways = 0, hbm_latency = 0, dram_access_bytes = 64;
  double l2_bytes_per_cycle = 0, hbm_bytes_per_cycle = 0, port_bytes_per_cycle = 0;
  int cta_launch_cycles = 0;
  double cta_launch_per_warp = 0;      // a CTA slot's turnover grows by this per warp of the CTA
  double cta_dispatch_cycles = 0;      // the GPU starts one CTA per this many cycles (all SMs together)
  int registers_granule = 256;         // registers are allocated per warp in units of this many
  int shared_reserved_per_cta = 0;     // bytes the driver reserves per CTA

  static WarpParams from_config(const Config& config);
};

}  // namespace hwsim::warp
