#pragma once
// What a kernel run on the warp model measured: counts per instruction (pc) and per kernel.
// Filled by the SMs; kernel_report.cpp turns it into text and JSON without recomputing timing.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/gpu/warp/warp_state.h"

namespace hwsim::warp {

inline constexpr int kStalls = int(Stall::count);

struct PcStats {
  std::uint64_t issued = 0;                 // warp instructions
  std::uint64_t lanes = 0;                  // thread instructions not predicated off (Nsight Compute's
                                            // thread_inst_executed_pred_on)
  std::uint64_t active_lanes = 0;           // thread instructions of the lanes active in the warp (its
                                            // SIMT mask; Nsight's thread_inst_executed): predicated-off ones too
  std::array<std::uint64_t, 33> lane_hist{}; // warp instructions by lanes not predicated off
  std::array<std::uint64_t, kStalls> stall{};// stall cycles charged to warps waiting to issue this pc
  std::uint64_t shared_requests = 0, wavefronts = 0;
  std::vector<std::uint64_t> bank_words;    // shared: distinct words each bank served, summed over
                                            // requests (one counter per bank; empty without shared accesses)
  std::vector<std::uint64_t> bank_requests; // shared: requests that used each bank
  int worst_wavefronts = 0;                 // example warp with the highest conflict degree
  std::vector<std::uint64_t> example_addr;  // its addresses (32), lanes in example_mask
  std::uint32_t example_mask = 0;
  int example_bytes = 0;                    // bytes per lane of that access
  std::uint64_t global_requests = 0, sectors = 0, lines = 0;
};

// One interval of a traced warp: a stall of one reason, or a *run* (what == kTraceRun): the
// instructions it issued and the short stalls between them. Consecutive stalls of one reason are
// one event; `count` is the instructions of a run, the stall intervals merged otherwise.
inline constexpr std::uint8_t kTraceRun = std::uint8_t(Stall::count);
struct TraceEvent {
  std::int64_t start = 0, end = 0;
  int track = 0;                            // index into KernelStats::tracks
  std::uint8_t what = 0;                    // Stall value, or kTraceRun
  int pc = 0;                               // the first instruction
  std::uint32_t count = 1;
  std::uint8_t top = 0;                     // a run: the stall it spent most cycles in (selected: none)
  std::uint32_t top_cycles = 0;
};

// A traced warp: one warp of one block on one SM (its Chrome trace track), and its open run.
struct TraceTrack {
  int sm = 0;
  std::uint64_t cta = 0;
  int warp_in_cta = 0;
  std::int64_t last_event = -1;             // its latest event in KernelStats::events
  std::int64_t run_start = -1, run_end = 0; // the open run (run_start < 0: none)
  int run_pc = 0;
  std::uint32_t run_instructions = 0;
  std::array<std::uint32_t, std::size_t(Stall::count)> run_cycles{};
};

struct Occupancy {
  int threads_per_cta = 0, warps_per_cta = 0, registers_per_thread = 0;
  std::uint64_t shared_per_cta = 0;
  int limit_warps = 0, limit_ctas = 0, limit_registers = 0, limit_shared = 0;  // CTAs per SM by each
  int ctas_per_sm = 0;                      // the minimum
  std::string limiter;                      // the limits that bind ("warps", "registers", "shared memory",
                                            // "blocks"; several joined by " and ")
  double theoretical = 0;                   // resident warps / max warps
};

struct KernelStats {
  std::vector<PcStats> pcs;
  std::array<std::uint64_t, kStalls> stall{};
  std::array<std::uint64_t, 33> lane_hist{};
  // Thread instructions not predicated off, and of the active lanes (PcStats::lanes, active_lanes).
  std::uint64_t warp_instructions = 0, thread_instructions = 0, active_thread_instructions = 0;
  std::int64_t cycles = 0;
  double warp_cycles_resident = 0;          // Σ over SMs of resident warps × cycles (achieved occupancy)
  double sm_busy_cycles = 0;                // Σ over SMs of cycles with at least one resident warp
  int sms_simulated = 0;
  std::uint64_t ctas_simulated = 0;
  bool trace = false;
  std::size_t trace_limit = 400000;         // events kept at most
  int trace_warps = 64;                     // warps traced per SM: the first to launch on it
  int trace_stall_cycles = 64;              // a stall this long is an event of its own; shorter ones fold into runs
  std::vector<TraceTrack> tracks;
  std::vector<TraceEvent> events;
};

}  // namespace hwsim::warp
