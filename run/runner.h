#pragma once
// The runner interface (run/simulate.h chooses one by the workload): one way of running a workload
// in one SystemC elaboration, registered by name (Registry<Runner>): "single" (one device, step
// after step), "system" (pipeline stages and links, models/cluster), "serving" (requests over time,
// run/serving). A runner builds what it runs on, checks that the workload fits, runs it and
// returns the RunResult its RunCollector (run/metrics/collector.h) derived.
#include "run/simulate.h"

namespace hwsim {

class Runner {
 public:
  static constexpr const char* kind_name = "runner";
  virtual ~Runner() = default;
  virtual RunResult run(const RunRequest& request) = 0;
};

// The runner the request needs: "serving", "system" or "single".
const char* runner_for(const RunRequest& request);

}  // namespace hwsim
