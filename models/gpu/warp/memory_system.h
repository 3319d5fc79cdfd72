#pragma once
// Global-memory timing of the warp model: per-SM L1 (sectored, tag stage of a few lines per
// cycle, SM↔L2 port), one L2 shared by all SMs (sectored, sliced by a hashed index, bandwidth
// server), and device memory (latency plus a bandwidth server, fetched in dram_access_bytes).
// Requests are timed when issued (execute at issue); SMs are stepped in time order, so the
// bandwidth servers see requests in nearly time order.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/gpu/warp/coalescer.h"
#include "models/gpu/warp/sector_cache.h"
#include "models/gpu/warp/warp_params.h"

namespace hwsim::warp {

struct MemoryStats {
  std::uint64_t requests = 0, sectors = 0, lines = 0;
  std::uint64_t l1_hit_sectors = 0, l2_hit_sectors = 0, dram_sectors = 0, store_sectors = 0;
};

class MemorySystem {
 public:
  // `sms` simulated SMs; shared bandwidths are scaled by `bandwidth_share` (subset simulation).
  MemorySystem(const WarpParams& p, int sms, std::uint64_t l1_data_bytes, double bandwidth_share);
  // Timing of a warp's load issued at cycle t on `sm`: the cycle its data is in registers.
  std::int64_t load(int sm, std::int64_t t, const Coalesced& c);
  // A store (or atomic, with returns_data): consumes tag stage, port, L2 and DRAM bandwidth.
  std::int64_t store(int sm, std::int64_t t, const Coalesced& c, bool returns_data);
  // Cycle the tag stage of `sm` frees (for LG throttle).
  double tag_free(int sm) const { return tag_free_[std::size_t(sm)]; }
  const MemoryStats& stats() const { return stats_; }
  const BandwidthServer& dram() const { return dram_; }

 private:
  std::int64_t l2_sector(int sm, double t, std::uint64_t line, int sector);
  const WarpParams& p_;
  std::vector<std::unique_ptr<SectorCache>> l1_;
  std::vector<double> tag_free_;
  std::vector<BandwidthServer> port_;
  SectorCache l2_;
  BandwidthServer l2_bw_, dram_;
  MemoryStats stats_;
};

}  // namespace hwsim::warp
