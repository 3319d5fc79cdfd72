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
  std::uint64_t lanes = 0;                  // thread instructions (active, not predicated off)
  std::array<std::uint64_t, 33> lane_hist{}; // warp instructions by active lanes
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

struct TraceEvent {
  std::int64_t start = 0, end = 0;
  int sm = 0, warp = 0;                     // warp: SM-local slot ordinal (track)
  std::uint64_t cta = 0;
  std::uint8_t what = 0;                    // Stall value (selected = issue)
  int pc = 0;
};

struct Occupancy {
  int threads_per_cta = 0, warps_per_cta = 0, registers_per_thread = 0;
  std::uint64_t shared_per_cta = 0;
  int limit_warps = 0, limit_ctas = 0, limit_registers = 0, limit_shared = 0;  // CTAs per SM by each
  int ctas_per_sm = 0;                      // the minimum
  std::string limiter;                      // which limit binds
  double theoretical = 0;                   // resident warps / max warps
};

struct KernelStats {
  std::vector<PcStats> pcs;
  std::array<std::uint64_t, kStalls> stall{};
  std::array<std::uint64_t, 33> lane_hist{};
  std::uint64_t warp_instructions = 0, thread_instructions = 0;
  std::int64_t cycles = 0;
  double warp_cycles_resident = 0;          // Σ over SMs of resident warps × cycles (achieved occupancy)
  int sms_simulated = 0;
  std::uint64_t ctas_simulated = 0;
  bool trace = false;
  std::size_t trace_limit = 400000;
  int trace_warps = 64;                     // warps per SM traced
  std::vector<TraceEvent> events;
};

}  // namespace hwsim::warp
