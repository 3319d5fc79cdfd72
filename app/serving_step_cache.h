#pragma once
// Reuse of engine-step times (docs/serving.md, "Reuse"). A device keeps what a step leaves in its
// caches for the next, so a step's time depends on the step before: a step whose shape AND whose
// device's previous step's shape both equal an earlier pair takes that pair's simulated time. Keys
// are the shapes' integer encodings (app/serving_pass); instances of one chip share the table (a
// device's time depends only on its own steps; a tp instance whose collectives could meet other
// traffic on the links does not reuse, app/serving_runner decides).
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace hwsim {

using ShapeKey = std::vector<std::int64_t>;

class StepCache {
 public:
  // The seconds `key` took after `previous`, or null when that pair never ran.
  const double* find(const ShapeKey& previous, const ShapeKey& key) const {
    auto it = seconds_.find({previous, key});
    return it == seconds_.end() ? nullptr : &it->second;
  }
  void store(const ShapeKey& previous, const ShapeKey& key, double seconds) {
    seconds_.emplace(std::make_pair(previous, key), seconds);
  }
  // True the first time `key` is seen: its records are kept once.
  bool first_records(const ShapeKey& key) { return labelled_.insert(key).second; }

 private:
  std::map<std::pair<ShapeKey, ShapeKey>, double> seconds_;
  std::set<ShapeKey> labelled_;
};

}  // namespace hwsim
