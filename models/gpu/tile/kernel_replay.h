#pragma once
// Exact reuse of a kernel's simulation inside and across steps (docs/architecture.md, "Kernel
// replay"). Between kernels the tile machine is idle: no flow, no timer, no resident CTA, and it
// simulates each kernel in times and sums measured from the kernel's start (restart_frame). A
// kernel's run is then a function of the kernel, the caches' contents and the clocks the power
// governor sets during it, and of nothing else. So a kernel whose renamed shape and
// renamed caches (kernel_names.h) equal those of a recorded run, from a governor that would set
// the recorded clocks on the recorded spans, runs as recorded: the machine takes the recorded
// time, record and caches after it, and the governor the state those spans leave it in. A kernel
// whose flows no SM limited (its SMs never saturated: FlowNetwork::watched_saturations) runs alike at
// any higher SM clocks, so it is also taken where the governor sets clocks at least the recorded
// ones, its energy, clock and breakdown priced again at them. A decode
// step of Llama-3-8B at batch 256 runs 739 kernels of 27 such (kernel, caches) classes. Replayed or
// simulated, every record is the same bits (u426).
#include <list>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "models/gpu/power/clock_domain.h"
#include "models/gpu/tile/kernel_names.h"
#include "sim/engine/systemc.h"
#include "sim/result.h"

namespace hwsim {

// How `after` of an outcome renames for a kernel that follows it (rename_linked): keyed by where
// that kernel's tensors lie in `after` (`codes`), the digest and the others (as codes of `after`).
struct ChainLink {
  std::vector<std::int64_t> codes;
  Digest digest;
  std::vector<std::int64_t> others;
};

// What a kernel's time accounting needs besides its power (TileMachine::account): its duration,
// SM-seconds with resident CTAs, and the CTAs' overhead SM-seconds.
struct KernelTimes {
  double duration = 0, busy = 0, overhead_sm_seconds = 0;
};

// What a recorded kernel run did: its time from launch to end, the record's figures it computed,
// the caches after it (renamed like those before) and what the governor observed and set.
struct KernelOutcome {
  sc_core::sc_time duration;
  Figures<kMaxLevels> traffic;
  TimeBreakdown breakdown;
  double energy = 0, clock = 0, throttled = 0, over_limit = 0;
  Figures<kMaxEnergyParts> energy_parts;
  PartitionedCaches::State after;
  GpuClockDomain::Recording governor;
  // No clocked resource (an SM) limited its flows: at any clocks at least the recorded ones it runs
  // alike (GpuClockDomain::replay_at_clocks), its energy, clock and breakdown priced again from
  // `times` (TileMachine::account).
  bool clock_free = false;
  KernelTimes times;
  std::size_t bytes() const;  // memory held, roughly (its links included)

  // The link for a next kernel whose tensors have `codes` in `after`, computed when new. A function
  // of `after` and `codes` alone, so kept with the outcome (and gone with it): at most kMaxLinks,
  // the oldest replaced.
  const ChainLink& link(std::span<const std::int64_t> codes) const;
  static constexpr std::size_t kMaxLinks = 8;

 private:
  mutable std::vector<ChainLink> links_;
  mutable std::size_t next_link_ = 0;  // the one replaced next when full
};

class KernelReplays {
 public:
  // Recorded runs of a kernel (its digest), as the last of a step or not, from caches of `state`'s
  // digest, most recently used first.
  struct Key {
    Digest kernel, state;
    bool last_of_step;
    bool operator==(const Key&) const = default;
  };
  std::vector<std::shared_ptr<const KernelOutcome>>* find(const Key& key);
  // Outcome `index` of find(key) was taken: it becomes the most recent.
  void used(const Key& key, std::size_t index);
  void store(const Key& key, std::shared_ptr<const KernelOutcome> outcome);

  // At most this many outcomes per key (their governor histories differ), and this many bytes in
  // all: the least recently used key goes first.
  static constexpr std::size_t kMaxPerKey = 8;
  static constexpr std::size_t kMaxBytes = std::size_t(64) << 20;

 private:
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return DigestHash{}(k.kernel) ^ (DigestHash{}(k.state) * 31) ^ k.last_of_step; }
  };
  struct Entry {
    std::vector<std::shared_ptr<const KernelOutcome>> outcomes;
    std::vector<std::size_t> counted;  // each outcome's bytes() as counted in bytes_ (links grow it)
    std::list<Key>::iterator age;
  };
  void trim();  // the oldest keys go while over kMaxBytes (never the most recent)
  void touch(Entry& e);
  std::unordered_map<Key, Entry, KeyHash> entries_;
  std::list<Key> ages_;  // most recently used first
  std::size_t bytes_ = 0;
};

}  // namespace hwsim
