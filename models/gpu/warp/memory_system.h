#pragma once
#include <algorithm>
#include <cmath>
// Global-memory timing of the warp model: per-SM L1 (sectored, tag stage of a few lines per
// cycle, SM↔L2 port), one L2 shared by all SMs (sectored, sliced by a hashed index, bandwidth
// server), and the memory below it (dram_model.h: the built-in device memory, latency plus a
// bandwidth server fetched in dram_access_bytes, or an external SystemC model over TLM-2.0).
// Requests are timed when issued (execute at issue); SMs are stepped in time order, so the
// bandwidth servers see requests in nearly time order.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/gpu/warp/coalescer.h"
#include "models/gpu/warp/dram_model.h"
#include "models/gpu/warp/sector_cache.h"
#include "models/gpu/warp/warp_params.h"

namespace hwsim::warp {

struct MemoryStats {
  std::uint64_t requests = 0, sectors = 0, lines = 0;
  std::uint64_t l1_hit_sectors = 0, l2_hit_sectors = 0, dram_sectors = 0, store_sectors = 0;
  // load sectors counted in l2_hit_sectors whose DRAM access the same warp request started (the
  // other half of a 64-byte access): Nsight Compute counts them as misses
  std::uint64_t l2_hits_own_fetch = 0;
};

// The lines a run's global accesses touched, and how many of them more than one block touched
// (to weigh a subset's L2 pressure: kernel_launch.cpp). About kBytesPerLine of host memory a line.
struct Footprint {
  std::unordered_map<std::uint64_t, std::uint64_t> owner;  // line -> the block that touched it + 1; 0: several
  std::uint64_t shared = 0;                                 // lines of owner 0
  static constexpr double kBytesPerLine = 64;               // a hash node and its bucket
  void note(const Coalesced& c, std::uint64_t cta);
};

class MemorySystem {
 public:
  // `sms` simulated SMs; the shared bandwidths are scaled by `share` (the share of the grid's SMs
  // a subset simulation runs).
  MemorySystem(const WarpParams& p, int sms, std::uint64_t l1_data_bytes, double share);
  // A subset's L2 pressure: each L2 allocation of a line that one block alone touched in
  // `f` (a counted run of the same subset) also fills the L2 with weight - 1 lines never used
  // again (SectorCache::add_pressure), as the blocks not simulated do with rows of their own. Lines several blocks touched
  // stand for themselves (the whole grid shares them).
  void weigh_own_lines(std::shared_ptr<const Footprint> f, double weight);
  // From now on the global accesses the SMs note go into `f` (null: none are kept).
  void count_footprint(Footprint* f) { footprint_ = f; }
  // A global access of block `cta` (its lines), for the footprint being counted.
  void note_footprint(const Coalesced& c, std::uint64_t cta) {
    if (footprint_) footprint_->note(c, cta);
  }
  // Timing of a warp's load issued at cycle t on `sm`: the cycle its data is in registers.
  // l2_only (ld.global.cg): the sectors are neither looked up in nor allocated in the L1.
  std::int64_t load(int sm, std::int64_t t, const Coalesced& c, bool l2_only = false);
  // A store (or an atomic's request): consumes tag stage, port, L2 and DRAM bandwidth. Returns
  // the cycle the L2's answer (a store's acknowledgement, an atomic's data) could be back at the
  // SM: a round trip (memory.l2.latency) after the request left it.
  std::int64_t store(int sm, std::int64_t t, const Coalesced& c);
  // An atomic read-modify-write: a store's traffic, then the L2 performs it on each line in turn
  // with the line's earlier atomics. A line is busy the longest of: gpu.warp.atomic_line cycles
  // per lane on its most shared address (those lanes one after another), atomic_line plus
  // gpu.warp.atomic_word per further distinct address, and gpu.warp.atomic_new_words when the
  // request's words differ from the line's previous request's. `lanes[i]` describes the request
  // on c.lines[i]. A line's queue holds gpu.warp.atomic_queue operations: beyond that the SM holds
  // the atomic back, and `held_until` (at least t) is the cycle it could hand it over. Returns the
  // cycle its result is back at the SM.
  std::int64_t atomic(int sm, std::int64_t t, const Coalesced& c, const LineAtomics* lanes, std::int64_t& held_until);
  // The cycle the last atomic issued so far is performed at L2 (a kernel ends no earlier).
  double atomics_done() const { return atomics_done_; }
  // Puts [base, base + bytes) in every L2 partition, as a previous launch that read or wrote it
  // leaves it (CUDA graph replays, a benchmark's repetitions): whole lines, ready at cycle 0, not
  // counted in the statistics. Later calls evict earlier lines as the LRU does.
  void warm_l2(std::uint64_t base, std::uint64_t bytes);
  // The L2 contents a finished launch on `previous` (same parameters) left, ready at cycle 0: the
  // next launch of a CUDA graph finds them. L1s, queues and statistics start empty; `previous`
  // is left without an L2.
  void take_l2_from(MemorySystem& previous);
  // The SM's L1 tag stage, which is also its shared-memory data path (the unified L1/shared
  // memory of Volta and later): the cycle it takes its next line lookup or shared wavefront
  // (for LG throttle).
  double tag_free(int sm) const { return tag_free_[std::size_t(sm)]; }
  // Shared-memory wavefronts hold the tag stage of `sm` until `until`.
  void hold_tag_stage(int sm, double until) {
    double& tag = tag_free_[std::size_t(sm)];
    tag = std::max(tag, until);
  }
  const MemoryStats& stats() const { return stats_; }
  // The memory below the L2 from now on: `external` (gpu.warp.dram_model = "tlm": the model the
  // embedding program bound, LaunchOptions::dram) or, when null, the built-in one. One line
  // (a config error) when the key and the hook disagree: "tlm" without a model, a model while
  // the key says "builtin".
  void use_dram(DramModel* external);
  // Bytes the memory below the L2 moved (DramModel::bytes).
  double dram_bytes() const { return dram_->bytes(); }

 private:
  // A line request's L2 lines (near and home partition), each looked up once per request: looked
  // up again for a later sector, the line would only become the most recently used of its
  // partition again, which it still is (nothing else is looked up there in between), so the
  // first lookup's answer stands. An allocation is noted in `near` or `home`.
  struct L2Lookup {
    SectorCache::Line* near = nullptr;
    SectorCache::Line* home = nullptr;
    bool near_known = false, home_known = false;
    SectorCache::Line* find(SectorCache& part, std::uint64_t line, bool home_part);
  };
  // One sector of a line request. `fetched` gets the bits of the sectors whose DRAM access this
  // call started; `at` is the request's lookup, the same for all its sectors.
  std::int64_t l2_sector(int sm, double t, std::uint64_t line, int sector, std::uint32_t& fetched, L2Lookup& at);
  const WarpParams& p_;
  std::vector<std::unique_ptr<SectorCache>> l1_;
  std::vector<double> tag_free_;
  std::vector<BandwidthServer> port_;
  // L2 partitions (H100: two). A line is homed in one (address hash); an SM looks in its near
  // partition first, and lines homed in the far one are also cached near, so data one SM touches
  // occupies its near partition whole: one SM's effective L2 is one partition.
  std::vector<std::unique_ptr<SectorCache>> l2_;
  int near_part(int sm) const { return sm % int(l2_.size()); }
  int home_part(std::uint64_t line) const;
  BandwidthServer l2_bw_;
  // gpu.warp.l2_merge: per sector (line × kMaxSectors + sector), the cycle its last L2 bandwidth
  // was reserved and when that reservation is served; a request within an L2 round trip of it
  // shares it
  struct InFlight {
    double sent = 0, served = 0;
  };
  std::unordered_map<std::uint64_t, InFlight> l2_inflight_;
  double l2_reserve(double t, std::uint64_t line, int sector);
  std::unique_ptr<DramModel> builtin_dram_;
  DramModel* dram_ = nullptr;  // builtin_dram_ or the bound external model
  // per line that atomics touched: the cycle its L2 atomic unit is free for the next one, and the
  // words its last request touched
  struct AtomicLine {
    double free = 0;
    std::uint64_t words = 0;
  };
  std::unordered_map<std::uint64_t, AtomicLine> atomic_free_;
  double atomics_done_ = 0;
  MemoryStats stats_;
  Footprint* footprint_ = nullptr;
  std::shared_ptr<const Footprint> footprint_weights_;
  double own_line_weight_ = 1;
  SectorCache::Line& allocate_l2(SectorCache& part, std::uint64_t line);
};

}  // namespace hwsim::warp
