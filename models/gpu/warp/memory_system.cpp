#include "models/gpu/warp/memory_system.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "models/gpu/warp/builtin_dram.h"
#include "sim/error.h"
#include "sim/memory_budget.h"

namespace hwsim::warp {

using Line = SectorCache::Line;

MemorySystem::MemorySystem(const WarpParams& p, int sms, std::uint64_t l1_data_bytes, double share)
    : p_(p), tag_free_(std::size_t(sms), 0), port_(std::size_t(sms)) {
  const int parts = std::max(1, p.l2_partitions);
  // The tag stores hold a Line per cache line: stated before they are allocated (--max-memory).
  double line_bytes = double(std::max(1, p.line_bytes));
  double lines = double(p.chip.l2_bytes) / line_bytes + double(sms) * std::max(double(l1_data_bytes), line_bytes) / line_bytes;
  require_memory(lines * sizeof(Line), fmt::format("the warp model's cache tag stores (memory.l2.size {} B, {} SMs of "
                                                   "{} B L1, lines of {} B)",
                                                   p.chip.l2_bytes, sms, l1_data_bytes, p.line_bytes));
  for (int i = 0; i < parts; ++i)
    l2_.push_back(std::make_unique<SectorCache>(std::uint64_t(p.chip.l2_bytes) / std::uint64_t(parts), p.line_bytes, p.l2_ways, true));
  for (int i = 0; i < sms; ++i) {
    l1_.push_back(std::make_unique<SectorCache>(std::max<std::uint64_t>(l1_data_bytes, std::uint64_t(p.line_bytes)),
                                                p.line_bytes, p.l1_ways, false));
    port_[std::size_t(i)].rate = p.port_bytes_per_cycle;
  }
  l2_bw_.rate = p.l2_bytes_per_cycle * share;
  builtin_dram_ = std::make_unique<BuiltinDram>(p, share);
  dram_ = builtin_dram_.get();
}

void MemorySystem::use_dram(DramModel* external) {
  if (p_.dram_model == DramModelKind::tlm && !external)
    config_error("gpu.warp.dram_model = \"tlm\": no TLM-2.0 target is bound to the warp model's DRAM socket; the hwsim "
                 "program has none (an embedding program binds its SystemC DRAM model: examples/warp_tlm_dram.cpp)");
  if (p_.dram_model != DramModelKind::tlm && external)
    config_error("gpu.warp.dram_model is \"builtin\" but a DRAM model is bound (LaunchOptions::dram): set gpu.warp.dram_model "
                 "= \"tlm\" to use it");
  dram_ = external ? external : builtin_dram_.get();
  dram_->start_kernel(p_);
}

int MemorySystem::home_part(std::uint64_t line) const {
  if (l2_.size() == 1) return 0;
  std::uint64_t h = line * 0xff51afd7ed558ccdull;
  return int((h >> 40) % l2_.size());
}

void Footprint::note(const Coalesced& c, std::uint64_t cta) {
  for (int i = 0; i < c.count; ++i) {
    auto [it, added] = owner.try_emplace(c.lines[i].line, cta + 1);
    if (!added && it->second != cta + 1 && it->second != 0) {
      it->second = 0;
      ++shared;
    }
  }
}

void MemorySystem::weigh_own_lines(std::shared_ptr<const Footprint> f, double weight) {
  footprint_weights_ = std::move(f);
  own_line_weight_ = weight;
}

Line& MemorySystem::allocate_l2(SectorCache& part, std::uint64_t line) {
  if (footprint_weights_) {
    auto it = footprint_weights_->owner.find(line);
    if (it != footprint_weights_->owner.end() && it->second != 0) {
      // the blocks not simulated allocate lines of their own as this one: lines never asked for
      // again, spread over the sets
      part.add_pressure(own_line_weight_ - 1);
    }
  }
  return part.allocate(line);
}

void MemorySystem::take_l2_from(MemorySystem& previous) {
  l2_ = std::move(previous.l2_);
  for (auto& part : l2_) part->settle();
}

void MemorySystem::warm_l2(std::uint64_t base, std::uint64_t bytes) {
  const std::uint64_t line_bytes = std::uint64_t(p_.line_bytes);
  const int sectors = std::min(SectorCache::kMaxSectors, p_.line_bytes / p_.sector_bytes);
  const std::uint32_t all = sectors >= 32 ? ~0u : (1u << sectors) - 1;
  for (std::uint64_t line = base / line_bytes; line * line_bytes < base + bytes; ++line)
    for (auto& part : l2_) {
      Line* l = part->find(line);
      if (!l) l = &part->allocate(line);
      l->valid = all;
      std::fill(std::begin(l->ready), std::end(l->ready), std::int64_t(0));
    }
}

// One sector from L2 (or DRAM behind it); returns the cycle it arrives back at the SM.
Line* MemorySystem::L2Lookup::find(SectorCache& part, std::uint64_t line, bool home_part) {
  Line*& l = home_part ? home : near;
  bool& known = home_part ? home_known : near_known;
  if (!known) l = part.find(line), known = true;
  return l;
}

double MemorySystem::l2_reserve(double t, std::uint64_t line, int sector) {
  if (!p_.l2_merge) return l2_bw_.reserve(t, p_.sector_bytes);
  InFlight& f = l2_inflight_[line * SectorCache::kMaxSectors + std::uint64_t(sector)];
  if (f.sent > 0 && t >= f.sent && t < f.sent + p_.l2_latency) return f.served;  // merged with the request in flight
  f.sent = std::max(t, 1e-9);
  f.served = l2_bw_.reserve(t, p_.sector_bytes);
  return f.served;
}

std::int64_t MemorySystem::l2_sector(int sm, double t, std::uint64_t line, int sector, std::uint32_t& fetched, L2Lookup& at) {
  double served = l2_reserve(t, line, sector);
  SectorCache& near = *l2_[std::size_t(near_part(sm))];
  const int home = home_part(line);
  const bool far = home != near_part(sm);
  auto hit_at = [&](std::int64_t ready) {
    ++stats_.l2_hit_sectors;
    return std::max<std::int64_t>(std::int64_t(t) + p_.l2_latency, std::max<std::int64_t>(ready, std::int64_t(std::ceil(served))));
  };
  Line* l = at.find(near, line, false);
  if (l && (l->valid >> sector & 1)) return hit_at(l->ready[sector]);
  if (far) {  // the home partition has it: served from there, and now cached near as well
    Line* h = at.find(*l2_[std::size_t(home)], line, true);
    if (h && (h->valid >> sector & 1)) {
      std::int64_t r = hit_at(h->ready[sector]);
      if (!l) l = at.near = &allocate_l2(near, line);
      l->valid |= 1u << sector;
      l->ready[sector] = r;
      return r;
    }
  }
  if (!l) l = at.near = &allocate_l2(near, line);
  Line* hl = nullptr;
  if (far) {
    hl = at.find(*l2_[std::size_t(home)], line, true);
    if (!hl) hl = at.home = &allocate_l2(*l2_[std::size_t(home)], line);
  }
  // fetch the DRAM access granule holding this sector (64 B = a sector pair on H100)
  int per_access = std::max(1, p_.dram_access_bytes / p_.sector_bytes);
  int first = sector / per_access * per_access;
  const std::int64_t ready = dram_->read(t, line * std::uint64_t(p_.line_bytes) + std::uint64_t(first * p_.sector_bytes),
                                         per_access * p_.sector_bytes);
  for (int s = first; s < first + per_access && s < SectorCache::kMaxSectors; ++s) {
    if (!(l->valid >> s & 1)) fetched |= 1u << s;
    for (Line* x : {l, hl}) {
      if (!x || (x->valid >> s & 1)) continue;
      x->valid |= 1u << s;
      x->ready[s] = ready;
    }
  }
  stats_.dram_sectors += std::uint64_t(per_access);
  return ready;
}

std::int64_t MemorySystem::load(int sm, std::int64_t t, const Coalesced& c, bool l2_only) {
  ++stats_.requests;
  stats_.lines += std::uint64_t(c.count);
  std::int64_t ready = t + p_.l1_latency;
  double& tag = tag_free_[std::size_t(sm)];
  auto& l1 = *l1_[std::size_t(sm)];
  for (int i = 0; i < c.count; ++i) {
    const LineRequest& r = c.lines[i];
    double start = std::max(double(t), tag);
    tag = start + 1.0 / p_.l1_lines_per_cycle;
    std::uint32_t fetched = 0;  // sectors of this line whose DRAM access this request started
    L2Lookup at;
    if (l2_only) {
      for (std::uint32_t m = r.sectors; m; m &= m - 1) {
        int s = std::countr_zero(m);
        ++stats_.sectors;
        if (fetched >> s & 1) ++stats_.l2_hits_own_fetch;
        double sent = port_[std::size_t(sm)].reserve(start, p_.sector_bytes);
        ready = std::max(ready, std::max<std::int64_t>(l2_sector(sm, start, r.line, s, fetched, at), std::int64_t(std::ceil(sent))));
      }
      continue;
    }
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
      if (fetched >> s & 1) ++stats_.l2_hits_own_fetch;
      double sent = port_[std::size_t(sm)].reserve(start, p_.sector_bytes);
      std::int64_t arrive = l2_sector(sm, start, r.line, s, fetched, at);
      arrive = std::max<std::int64_t>(arrive, std::int64_t(std::ceil(sent)));
      l->valid |= 1u << s;
      l->ready[s] = arrive;
      ready = std::max(ready, arrive);
    }
  }
  return ready;
}

std::int64_t MemorySystem::store(int sm, std::int64_t t, const Coalesced& c) {
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
    // written to the home partition; a near copy elsewhere is dropped
    SectorCache& home = *l2_[std::size_t(home_part(r.line))];
    if (home_part(r.line) != near_part(sm))
      if (auto* c2 = l2_[std::size_t(near_part(sm))]->find(r.line)) c2->valid &= ~r.sectors;
    auto* l = home.find(r.line);
    if (!l) l = &allocate_l2(home, r.line);
    // written data leaves for DRAM eventually (write-back of full sectors)
    dram_->write(sent, r.line * std::uint64_t(p_.line_bytes), r.sectors, p_.sector_bytes);
    for (std::uint32_t m = r.sectors; m; m &= m - 1) {
      int s = std::countr_zero(m);
      l->valid |= 1u << s;
      l->ready[s] = std::int64_t(sent) + p_.l2_latency / 2;
    }
    ready = std::max<std::int64_t>(ready, std::int64_t(sent) + p_.l2_latency);
  }
  return ready;
}

std::int64_t MemorySystem::atomic(int sm, std::int64_t t, const Coalesced& c, const LineAtomics* lanes, std::int64_t& held_until) {
  std::int64_t ready = store(sm, t, c);
  held_until = t;
  if (p_.atomic_line_cycles <= 0) return ready;
  // the request reaches L2 half a round trip after it leaves; atomics on one line are performed
  // one after another (read, add, write back)
  const double half_trip = p_.l2_latency / 2.0;
  const double arrive = double(ready - p_.l2_latency) + half_trip;
  for (int i = 0; i < c.count; ++i) {
    AtomicLine& state = atomic_free_[c.lines[i].line];
    double& line_free = state.free;
    double accepted = arrive;
    if (p_.atomic_queue > 0) {  // a full queue: the SM keeps the atomic until the line has room
      accepted = std::max(arrive, line_free - p_.atomic_queue * p_.atomic_line_cycles);
      held_until = std::max<std::int64_t>(held_until, std::int64_t(std::ceil(accepted - half_trip)));
    }
    const LineAtomics& a = lanes[i];
    double busy = std::max(p_.atomic_line_cycles * std::max(1, a.depth), p_.atomic_line_cycles + p_.atomic_word_cycles * (a.words - 1));
    if (a.word_mask != state.words) busy = std::max(busy, p_.atomic_new_words_cycles);
    state.words = a.word_mask;
    double performed = std::max(accepted, line_free) + busy;
    line_free = performed;
    atomics_done_ = std::max(atomics_done_, performed);
    ready = std::max<std::int64_t>(ready, std::int64_t(std::ceil(performed + half_trip)));
  }
  return ready;
}

}  // namespace hwsim::warp
