#pragma once
// A kernel launch on the warp model: occupancy (how many CTAs fit on an SM), the CTA scheduler
// (breadth first over SMs, a new CTA whenever one retires), and the event loop that steps SMs in
// time order. run_kernel() hosts the loop in one SystemC module (call once per process);
// simulate_kernel() is the same loop without SystemC, for unit tests.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/gpu/warp/global_memory.h"
#include "models/gpu/warp/isa.h"
#include "models/gpu/warp/kernel_args.h"
#include "models/gpu/warp/kernel_stats.h"
#include "models/gpu/warp/memory_system.h"
#include "models/gpu/warp/warp_params.h"

namespace hwsim::warp {

// The warp model's horizons: a kernel runs at most this many cycles unless --max-cycles says
// otherwise (an endless loop stops with one line instead of running forever), and simulates at most
// kMaxSimulatedCtas blocks (--sample-sms simulates a share of a larger grid), as the tile model
// refuses more than its tiles.
inline constexpr std::int64_t kDefaultMaxCycles = 100'000'000;  // 50 ms at 2 GHz; a 1-warp loop: ~4 s
inline constexpr std::uint64_t kMaxSimulatedCtas = 4'000'000;

// Told (blocks retired, blocks simulated) as the measured launch's blocks retire.
using LaunchProgress = std::function<void(std::uint64_t, std::uint64_t)>;

struct LaunchOptions {
  LaunchArgs args;
  std::int64_t max_cycles = 0;     // 0 = kDefaultMaxCycles
  int sample_sms = 0;              // > 0: simulate this many SMs and their share of the grid, of the
                                   // bandwidths and of the L2's pressure (a first run counts their lines)
  bool trace = false;
  // The kernel's buffers start in L2 as a previous identical launch left them: a kernel replayed
  // in a CUDA graph or a benchmark loop finds its working set there when it fits. Buffers that fit
  // one L2 partition are all put there; larger ones get what a simulated previous launch left
  // (that launch's writes are discarded). Off: a cold L2 (the first launch).
  bool warm_l2 = false;
  // gpu.warp.dram_model = "tlm": the memory below the L2 the embedding program bound (a TlmDram,
  // tlm_dram.h, with its target bound), used by the measured launch (a previous launch for
  // warm_l2 and a subset's footprint count use the built-in model). Null: the built-in model.
  DramModel* dram = nullptr;
  LaunchProgress progress;  // empty: none (a front end draws a progress bar from it)
};

struct KernelRun {
  Program program;
  GlobalMemory memory;
  KernelStats stats;
  Occupancy occupancy;
  MemoryStats memory_stats;
  double dram_bytes = 0;            // DRAM server time in bytes (reads, writes, row and turnaround costs)
  double buffer_bytes = 0;          // the kernel's buffers, all of them
  bool buffers_fit_l2 = false;      // they fit one L2 partition: no line is fetched from DRAM twice
  std::uint64_t grid = 0, block = 0;
  std::string grid_shape, block_shape;  // "64x64", "32x8" for a 2-D or 3-D launch ("" when 1-D)
  int sm_count = 0;                // SMs of the chip
  double clock_hz = 0;
  double seconds = 0;              // cycles / clock + launch overhead
  double launch_overhead = 0;
  double host_seconds = 0;         // wall time of the simulation
  int max_warps_per_sm = 64;
  int l1_latency = 0, l2_latency = 0, hbm_latency = 0;  // cycles, for explanations
  int banks = 32, bank_bytes = 4;  // shared memory's banks (the bank map's columns)
  GpuChip chip;                    // peaks and power for the figures (kernel_figures.h)
  double l1_bytes_per_cycle = 0;   // the L1 tag stage's line rate × line size, per SM
  int sector_bytes = 32;
  int issue_width = 4;             // instructions an SM can issue per cycle (its sub-partitions)
};

Occupancy compute_occupancy(const WarpParams& p, const Program& program, std::int64_t block);

// Runs `program` to completion. Throws UserError(workload) for out-of-bounds accesses, barrier
// deadlocks, --max-cycles and blocks that do not fit.
std::unique_ptr<KernelRun> simulate_kernel(const WarpParams& p, Program program, const LaunchOptions& options);

// The same, inside a SystemC module (one elaboration per process).
std::unique_ptr<KernelRun> run_kernel(const WarpParams& p, Program program, const LaunchOptions& options);

}  // namespace hwsim::warp
