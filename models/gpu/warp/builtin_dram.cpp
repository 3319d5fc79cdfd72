#include "models/gpu/warp/builtin_dram.h"

#include <bit>

namespace hwsim::warp {

BuiltinDram::BuiltinDram(const WarpParams& p, double share) : p_(p) {
  if (p.dram_activation > 0) open_row_.assign(std::size_t(std::max(1, p.dram_banks)), 0);
  server_.rate = p.hbm_bytes_per_cycle * share;
}

double BuiltinDram::reserve(double t, double bytes, bool write, std::uint64_t addr) {
  if (write && p_.write_drain_cycles > 0) {
    writes_.add(t, bytes);
  }
  double a = std::min(1.0, bytes / 16384.0);  // recent write share over ~16 KB of DRAM traffic
  write_share_ += ((write ? 1.0 : 0.0) - write_share_) * a;
  double eff = 1.0 - p_.dram_turnaround * 4.0 * write_share_ * (1.0 - write_share_);
  double cost = bytes;
  if (p_.dram_activation > 0 && !open_row_.empty()) {
    std::uint64_t row = addr / std::uint64_t(p_.dram_row_bytes);
    std::uint64_t h = row * 0x9e3779b97f4a7c15ull;
    std::uint64_t& open = open_row_[std::size_t((h >> 32) % open_row_.size())];
    if (open != row + 1) {  // row miss: activate (stored +1 so 0 means closed)
      open = row + 1;
      cost += p_.dram_activation * p_.dram_access_bytes;
    }
    double per_row = double(p_.dram_row_bytes) / p_.dram_access_bytes;
    cost /= 1.0 + p_.dram_activation / per_row;  // sequential streams keep the usable rate
  }
  cost /= std::max(0.1, eff);
  if (p_.dram_queue_cycles > 0) {
    busy_.add(t, cost);
  }
  return server_.reserve(t, cost);
}

std::int64_t BuiltinDram::read(double t, std::uint64_t addr, int bytes) {
  double done = reserve(t, double(bytes), false, addr);
  // DRAM latency varies per access (bank/row state, channel queues, partition crossing): a
  // deterministic spread of +-hbm_latency_spread around the mean, from a hash of the address (its
  // line and first sector), so a warp that waits for many sectors waits for the slowest one
  const std::uint64_t line = addr / std::uint64_t(p_.line_bytes);
  const std::uint64_t first = addr % std::uint64_t(p_.line_bytes) / std::uint64_t(p_.sector_bytes);
  std::uint64_t h = line * 8 + first + 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  h ^= h >> 31;
  double u = double(h >> 11) * (1.0 / 9007199254740992.0);
  std::int64_t lat = p_.hbm_latency + std::int64_t(std::lround(p_.hbm_latency_spread * (2.0 * u - 1.0)));
  // reads queue behind write drains: the DRAM controllers batch writes and turn the bus around,
  // so read latency grows with the write share of the DRAM bandwidth
  if (p_.write_drain_cycles > 0) lat += std::int64_t(std::lround(p_.write_drain_cycles * writes_.utilisation(t, server_.rate)));
  // reads also queue in the memory controllers behind other requests: M/M/1-like waiting time
  // dram_queue · u/(1-u) at DRAM utilisation u (busy fraction over the same window), u capped
  if (p_.dram_queue_cycles > 0) {
    double q = std::min(busy_.utilisation(t, server_.rate), p_.dram_queue_max_util);
    lat += std::int64_t(std::lround(p_.dram_queue_cycles * q / (1.0 - q)));
  }
  return std::max<std::int64_t>(std::int64_t(t) + lat, std::int64_t(std::ceil(done)));
}

void BuiltinDram::write(double t, std::uint64_t line_addr, std::uint32_t sectors, int sector_bytes) {
  // written data leaves for DRAM eventually (write-back of full sectors)
  reserve(t, double(std::popcount(sectors) * sector_bytes), true, line_addr);
}

}  // namespace hwsim::warp
