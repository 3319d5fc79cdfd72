#pragma once
// The figures of a warp-model kernel run that its reports and pictures show, derived once from
// the counters of KernelRun (kernel_stats.h): IPC, SIMD efficiency, achieved occupancy, the warp
// states (Nsight Compute's stall reasons) with their shares, the shared-memory bank map of each
// shared-memory instruction and a row per instruction. The text report, the JSON document, the
// SVG charts (viz/svg/kernel_charts.h) and the HTML page (viz/kernel_html.h) only format these.
#include <cstdint>
#include <string>
#include <vector>

#include "models/gpu/warp/kernel_launch.h"
#include "models/gpu/warp/kernel_metrics.h"

namespace hwsim::warp {

double ipc(const KernelRun& r);                 // warp instructions per cycle per simulated SM
// Active lanes (the warp's SIMT mask, predicated-off ones too) / 32 per warp instruction: Nsight
// Compute's warp execution efficiency (Avg. Active Threads Per Warp / 32); divergence lowers it.
double simd_efficiency(const KernelRun& r);
// Lanes not predicated off / 32 per warp instruction (Avg. Not Predicated Off Threads Per Warp / 32):
// at most simd_efficiency; guards and if-converted branches lower it further.
double pred_on_efficiency(const KernelRun& r);
double achieved_occupancy(const KernelRun& r);  // resident warps / max warps, time-averaged
Stall dominant_stall(const KernelRun& r);       // the state with the most cycles, never `selected`

// One warp state: cycles summed over warps, and its share of all warp cycles.
struct StallShare {
  Stall stall = Stall::selected;
  std::string name;         // Nsight Compute's name (stall_name): long_scoreboard, ...
  std::string explanation;  // stall_explanation
  std::uint64_t cycles = 0;
  double share = 0;         // of every warp cycle (all states); the shares sum to 1
};

// The bank map of one shared-memory instruction.
struct BankRow {
  int pc = 0, line = 0;
  std::string text;                          // the source line
  std::uint64_t requests = 0, wavefronts = 0;
  double ways = 0;                           // wavefronts / requests: average conflict degree (1 = none)
  int worst_ways = 0;                        // the request with the highest degree
  std::vector<std::uint64_t> words;          // per bank: distinct words served, summed over requests
  std::vector<std::uint64_t> used_by;        // per bank: requests that used it
  std::vector<double> ways_per_bank;         // per bank: words / used_by, the ways the bank serialises
                                             // a request that uses it (0: never used)
  int banks_hit = 0;                         // banks with at least one word
  std::vector<std::uint64_t> worst_warp;     // per bank: that worst request's distinct words
  int worst_bank = 0;                        // a bank holding the most of them
};

// One instruction of the program, as the kernel's instruction table shows it.
struct InstrRow {
  int pc = 0, line = 0;
  std::string text;
  std::uint64_t issued = 0, thread_instructions = 0, active_thread_instructions = 0;
  double ways = 0;                 // shared accesses: average conflict degree (0: none ran)
  double sectors_per_request = 0;  // global accesses: 32-B sectors per warp request (0: none ran)
  std::uint64_t stall_cycles = 0;  // warp cycles charged to warps waiting to issue it (every state)
  std::string top_stall;           // the state with most of them, never `selected` ("" when none)
};

struct KernelFigures {
  double ipc = 0, simd_efficiency = 0, pred_on_efficiency = 0, achieved_occupancy = 0;
  Stall dominant = Stall::long_scoreboard;
  std::vector<StallShare> stalls;            // every state with cycles, in Stall order
  std::uint64_t warp_cycles = 0;             // all states' cycles
  int banks = 32, bank_bytes = 4;
  std::vector<BankRow> shared;               // each shared-memory instruction that ran, program order
  std::vector<InstrRow> instructions;        // every instruction, program order
  double sectors_per_request = 0;            // global memory, the whole kernel
  KernelMetrics metrics;                     // whole-kernel counts, bandwidths, roofline, L2 hit rate, energy
};

KernelFigures kernel_figures(const KernelRun& r);

}  // namespace hwsim::warp
