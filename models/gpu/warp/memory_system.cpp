#include "models/gpu/warp/memory_system.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace hwsim::warp {

MemorySystem::MemorySystem(const WarpParams& p, int sms, std::uint64_t l1_data_bytes, double share)
    : p_(p), tag_free_(std::size_t(sms), 0), port_(std::size_t(sms)),
      l2_(std::uint64_t(p.chip.l2_bytes), p.line_bytes, p.l2_ways, true) {
  for (int i = 0; i < sms; ++i) {
    l1_.push_back(std::make_unique<SectorCache>(std::max<std::uint64_t>(l1_data_bytes, std::uint64_t(p.line_bytes)),
                                                p.line_bytes, p.l1_ways, false));
    port_[std::size_t(i)].rate = p.port_bytes_per_cycle;
  }
  l2_bw_.rate = p.l2_bytes_per_cycle * share;
  dram_.rate = p.hbm_bytes_per_cycle * share;
}

// One sector from L2 (or DRAM behind it); returns the cycle it arrives back at the SM.
std::int64_t MemorySystem::l2_sector(int, double t, std::uint64_t line, int sector) {
  double served = l2_bw_.reserve(t, p_.sector_bytes);
  auto* l = l2_.find(line);
  if (l && (l->valid >> sector & 1)) {
    ++stats_.l2_hit_sectors;
    return std::max<std::int64_t>(std::int64_t(t) + p_.l2_latency, std::max<std::int64_t>(l->ready[sector], std::int64_t(std::ceil(served))));
  }
  if (!l) l = &l2_.allocate(line);
  // fetch the DRAM access granule holding this sector (64 B = a sector pair on H100)
  int per_access = std::max(1, p_.dram_access_bytes / p_.sector_bytes);
  int first = sector / per_access * per_access;
  double done = dram_.reserve(t, double(per_access * p_.sector_bytes));
  std::int64_t ready = std::max<std::int64_t>(std::int64_t(t) + p_.hbm_latency, std::int64_t(std::ceil(done)));
  for (int s = first; s < first + per_access && s < SectorCache::kMaxSectors; ++s) {
    if (l->valid >> s & 1) continue;
    l->valid |= 1u << s;
    l->ready[s] = ready;
  }
  stats_.dram_sectors += std::uint64_t(per_access);
  return ready;
}

std::int64_t MemorySystem::load(int sm, std::int64_t t, const Coalesced& c) {
  ++stats_.requests;
  stats_.lines += std::uint64_t(c.count);
  std::int64_t ready = t + p_.l1_latency;
  double& tag = tag_free_[std::size_t(sm)];
  auto& l1 = *l1_[std::size_t(sm)];
  for (int i = 0; i < c.count; ++i) {
    const LineRequest& r = c.lines[i];
    double start = std::max(double(t), tag);
    tag = start + 1.0 / p_.l1_lines_per_cycle;
    auto* l = l1.find(r.line);
    if (!l) l = &l1.allocate(r.line);
    for (std::uint32_t m = r.sectors; m; m &= m - 1) {
      int s = std::countr_zero(m);
      ++stats_.sectors;
      if (l->valid >> s & 1) {
        ++stats_.l1_hit_sectors;
        ready = std::max<std::int64_t>(ready, std::max<std::int64_t>(std::int64_t(start) + p_.l1_latency, l->ready[s]));
        continue;
      }
      double sent = port_[std::size_t(sm)].reserve(start, p_.sector_bytes);
      std::int64_t arrive = l2_sector(sm, start, r.line, s);
      arrive = std::max<std::int64_t>(arrive, std::int64_t(std::ceil(sent)));
      l->valid |= 1u << s;
      l->ready[s] = arrive;
      ready = std::max(ready, arrive);
    }
  }
  return ready;
}

std::int64_t MemorySystem::store(int sm, std::int64_t t, const Coalesced& c, bool returns_data) {
  ++stats_.requests;
  stats_.lines += std::uint64_t(c.count);
  double& tag = tag_free_[std::size_t(sm)];
  std::int64_t ready = t + p_.l1_latency;
  for (int i = 0; i < c.count; ++i) {
    const LineRequest& r = c.lines[i];
    double start = std::max(double(t), tag);
    tag = start + 1.0 / p_.l1_lines_per_cycle;
    // write-through, no L1 allocate: drop stale L1 copies, write the sectors into L2
    if (auto* l1 = l1_[std::size_t(sm)]->find(r.line)) l1->valid &= ~r.sectors;
    int n = std::popcount(r.sectors);
    stats_.sectors += std::uint64_t(n);
    stats_.store_sectors += std::uint64_t(n);
    double sent = port_[std::size_t(sm)].reserve(start, double(n * p_.sector_bytes));
    l2_bw_.reserve(sent, double(n * p_.sector_bytes));
    auto* l = l2_.find(r.line);
    if (!l) l = &l2_.allocate(r.line);
    // written data leaves for DRAM eventually (write-back of full sectors)
    dram_.reserve(sent, double(n * p_.sector_bytes));
    for (std::uint32_t m = r.sectors; m; m &= m - 1) {
      int s = std::countr_zero(m);
      l->valid |= 1u << s;
      l->ready[s] = std::int64_t(sent) + p_.l2_latency / 2;
    }
    ready = std::max<std::int64_t>(ready, std::int64_t(sent) + (returns_data ? p_.l2_latency : 0));
  }
  return ready;
}

}  // namespace hwsim::warp
