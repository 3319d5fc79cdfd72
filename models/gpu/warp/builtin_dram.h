#pragma once
// The warp model's own device memory (gpu.warp.dram_model = "builtin", the default): a latency
// (memory.hbm.latency, spread per address by gpu.warp.hbm_latency_spread) plus a bandwidth server
// at the usable HBM rate, fetched in gpu.warp.dram_access_bytes granules; row activations
// (gpu.warp.dram_activation, dram_row_bytes, dram_banks), read/write bus turnarounds
// (dram_turnaround), reads behind write drains (write_drain) and controller queueing (dram_queue).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "models/gpu/warp/dram_model.h"
#include "models/gpu/warp/sector_cache.h"
#include "models/gpu/warp/warp_params.h"

namespace hwsim::warp {

// Recent load on a server: what was added decays with a time constant of kWindow cycles, so
// load / kWindow is the recent rate; utilisation() divides it by the server's rate (capped at 1).
struct DecayingLoad {
  static constexpr double kWindow = 2048;  // cycles
  double load = 0, since = 0;
  void add(double t, double amount) { decay_to(t); load += amount; }
  double utilisation(double t, double server_rate) {
    decay_to(t);
    return std::min(1.0, load / kWindow / server_rate);
  }
  void decay_to(double t) {
    if (t > since) load *= std::exp(-(t - since) / kWindow), since = t;
  }
};

class BuiltinDram final : public DramModel {
 public:
  // `share`: the share of the grid's SMs a subset simulation runs (it gets that share of the rate).
  BuiltinDram(const WarpParams& p, double share);
  std::int64_t read(double t, std::uint64_t addr, int bytes) override;
  void write(double t, std::uint64_t line_addr, std::uint32_t sectors, int sector_bytes) override;
  double bytes() const override { return server_.bytes; }

 private:
  // DRAM bandwidth for `bytes` read or written at cycle t. Mixed read/write traffic costs bus
  // turnarounds: the DRAM rate is scaled by 1 - turnaround · 4f(1-f), f = recent write share.
  // A row activation costs dram_activation extra access times (row = dram_row_bytes of address
  // space, banks hashed); the rate is scaled so a sequential stream (a row per row_bytes /
  // dram_access_bytes accesses) keeps the usable bandwidth.
  double reserve(double t, double bytes, bool write, std::uint64_t addr);
  const WarpParams& p_;
  BandwidthServer server_;
  double write_share_ = 0;
  // recent DRAM write rate (bytes per cycle, exponentially averaged over ~write_window cycles):
  // reads wait behind write drains in proportion to the write utilisation
  DecayingLoad writes_;  // bytes written, for the write-drain term
  // recent DRAM busy time (reads and writes, in rate-bytes, same window): reads queue in the
  // memory controllers, M/M/1-like: + dram_queue · u/(1-u), u capped at dram_queue_max_util
  DecayingLoad busy_;  // DRAM cost of reads and writes, for the queueing term
  std::vector<std::uint64_t> open_row_;
};

}  // namespace hwsim::warp
