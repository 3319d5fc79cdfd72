// The "single" runner: a workload on one device. Builds the device the chip's `kind` names, checks
// its record schema and the workload's footprint against its main memory, runs every step in one
// SystemC elaboration (StepRunner) and derives every metric once, step by step (RunCollector), so
// a long run need not keep its records. Knows no kind of hardware.
#include <fmt/format.h>

#include <stdexcept>

#include "run/capacity.h"
#include "run/metrics/collector.h"
#include "run/runner.h"
#include "run/step_runner.h"
#include "sim/error.h"
#include "sim/registry.h"

namespace hwsim {
namespace {

// A device's records are named by its schema: its memory levels, in order, and at most the
// inline capacity of levels and details (a device that breaks this is a bug).
void check_schema(const DeviceInfo& device) {
  const RecordSchema* s = device.schema.get();
  bool levels_match = s && s->levels.size() == device.memory.size();
  for (std::size_t i = 0; levels_match && i < s->levels.size(); ++i) levels_match = s->levels[i] == device.memory[i].name;
  if (!levels_match || s->levels.size() > kMaxLevels || s->details.size() > kMaxDetails)
    throw std::logic_error("device '" + device.kind + "': its record schema does not name its memory levels in order, "
                           "or holds more than the inline levels and details");
}

class SingleRunner : public Runner {
 public:
  explicit SingleRunner(const Config&) {}

  RunResult run(const RunRequest& request) override {
    const Workload& workload = request.workload;
    if (!workload.parallel.single())
      workload_error(fmt::format("workload '{}' runs on {} devices: give a system of chips (--system NAME, e.g. "
                                 "--system h200x2; hwsim list systems)", workload.spec, workload.parallel.ranks()));
    init_systemc();
    auto device = make_device(request.chip);
    const DeviceInfo& info = device->info();
    check_schema(info);
    check_capacity(info, workload, device_parts(*device));
    RunCollector collector(workload, info, request.streams, {1.0});
    StepRunner runner("runner", StepExecutor({device.get()}), workload, framework_for(workload.framework, info),
                      [&](StepResult&& step) { collector.add_step(std::move(step)); });
    sc_core::sc_start();
    rethrow_simulation_failure();
    return collector.finish();
  }
};

}  // namespace

HWSIM_REGISTER(Runner, SingleRunner, "single", "one device, step after step");

}  // namespace hwsim
