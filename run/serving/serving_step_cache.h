#pragma once
// Reuse of engine-step times (docs/serving.md, "Reuse"). A device keeps what a step leaves in its
// caches and its clock governor for the next, so a step's time depends on the state it starts
// from. A step whose shape AND whose device's previous step's shape both equal an earlier pair may
// take that pair's simulated time: when the device recorded what the step did to its state
// (StepReplay::last_step_effect), only if the device, from its state now, would run it exactly so
// (StepReplay::replay_step: its caches as they were, its governor setting the same clocks), and then
// the device is left as the step left it; a pair may hold several such variants. A device that
// records nothing takes the pair's time as it is. Keys are the shapes' integer encodings
// (app/serving_pass); instances of one chip share the table (a device's time depends only on its
// own steps; a tp instance whose collectives could meet other traffic on the links does not
// reuse, app/serving_runner decides).
#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "ops/step_replay.h"
#include "sim/run_totals.h"

namespace hwsim {

using ShapeKey = std::vector<std::int64_t>;

class StepCache {
 public:
  struct Variant {
    double seconds = 0;
    std::shared_ptr<const StepEffect> effect;  // null: the device records none
    std::shared_ptr<const RunTotals> totals;   // what the pass's records added to the run's sums
  };
  // At most this many variants per pair, most recently used first: a new one past it replaces
  // the least recently used. Under a power limit a decode shape's first passes each start from
  // another governor history (the clock settling after the shape changed) and are seldom met
  // again; the one it settles into is met every pass after, so it must not be crowded out.
  static constexpr std::size_t kMaxVariants = 32;

  // The variants held, at most this many bytes in all (their recorded effects and totals): past
  // it the pairs least recently stored or used go first (never the one just stored). A mixed-length
  // trace makes a new pair nearly every step, seldom met again; reuse only ever takes a variant
  // the device would run exactly, so dropping one costs a re-simulation, never a figure.
  static constexpr std::size_t kMaxBytes = std::size_t(128) << 20;

  // The variants of `key` after `previous` (empty when that pair never ran), most recent first.
  const std::vector<Variant>& find(const ShapeKey& previous, const ShapeKey& key) const {
    static const std::vector<Variant> none;
    auto it = pairs_.find({previous, key});
    return it == pairs_.end() ? none : it->second.variants;
  }
  // Variant `v` of find(previous, key) was taken: it becomes the most recent (if still held: it
  // may have been replaced meanwhile), and its pair the most recently used.
  void used(const ShapeKey& previous, const ShapeKey& key, const Variant& v) {
    auto found = pairs_.find({previous, key});
    if (found == pairs_.end()) return;
    Pair& pair = found->second;
    auto& list = pair.variants;
    auto it = std::find_if(list.begin(), list.end(), [&](const Variant& w) { return w.totals == v.totals; });
    if (it != list.end()) std::rotate(list.begin(), it, it + 1);
    ages_.splice(ages_.begin(), ages_, pair.age);
  }
  void store(const ShapeKey& previous, const ShapeKey& key, Variant v) {
    auto [it, fresh] = pairs_.try_emplace({previous, key});
    Pair& pair = it->second;
    if (fresh) pair.age = ages_.insert(ages_.begin(), &it->first);
    else ages_.splice(ages_.begin(), ages_, pair.age);
    if (pair.variants.size() == kMaxVariants) {
      bytes_ -= bytes_of(pair.variants.back());
      pair.variants.pop_back();
    }
    bytes_ += bytes_of(v);
    pair.variants.insert(pair.variants.begin(), std::move(v));
    while (bytes_ > kMaxBytes && ages_.size() > 1) forget(ages_.back());
  }
  // True the first time `key` is seen: its records are kept once.
  bool first_records(const ShapeKey& key) { return labelled_.insert(key).second; }

 private:
  using PairKey = std::pair<ShapeKey, ShapeKey>;
  struct Pair {
    std::vector<Variant> variants;
    std::list<const PairKey*>::iterator age;
  };
  static std::size_t bytes_of(const Variant& v) {
    return sizeof(Variant) + sizeof(RunTotals) + (v.effect ? v.effect->bytes() : 0);
  }
  void forget(const PairKey* key) {
    auto it = pairs_.find(*key);
    for (const Variant& v : it->second.variants) bytes_ -= bytes_of(v);
    ages_.erase(it->second.age);
    pairs_.erase(it);
  }
  std::map<PairKey, Pair> pairs_;
  std::list<const PairKey*> ages_;  // the pairs, most recently stored or used first
  std::size_t bytes_ = 0;
  std::set<ShapeKey> labelled_;
};

}  // namespace hwsim
