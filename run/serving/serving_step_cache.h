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

  // The variants of `key` after `previous` (empty when that pair never ran), most recent first.
  const std::vector<Variant>& find(const ShapeKey& previous, const ShapeKey& key) const {
    static const std::vector<Variant> none;
    auto it = variants_.find({previous, key});
    return it == variants_.end() ? none : it->second;
  }
  // Variant `v` of find(previous, key) was taken: it becomes the most recent (if still held: it
  // may have been replaced meanwhile).
  void used(const ShapeKey& previous, const ShapeKey& key, const Variant& v) {
    auto& list = variants_.at({previous, key});
    auto it = std::find_if(list.begin(), list.end(), [&](const Variant& w) { return w.totals == v.totals; });
    if (it != list.end()) std::rotate(list.begin(), it, it + 1);
  }
  void store(const ShapeKey& previous, const ShapeKey& key, Variant v) {
    auto& list = variants_[{previous, key}];
    if (list.size() == kMaxVariants) list.pop_back();
    list.insert(list.begin(), std::move(v));
  }
  // True the first time `key` is seen: its records are kept once.
  bool first_records(const ShapeKey& key) { return labelled_.insert(key).second; }

 private:
  std::map<std::pair<ShapeKey, ShapeKey>, std::vector<Variant>> variants_;
  std::set<ShapeKey> labelled_;
};

}  // namespace hwsim
