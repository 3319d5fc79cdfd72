// The "system" runner: a workload on a system of devices (models/cluster). Builds the system (spec,
// topology, one representative device per pipeline stage, its links), checks that the layout fits
// (ranks ≤ devices, each stage's footprint ≤ its device's memory, every used device reachable),
// runs every step in one SystemC elaboration (StepRunner over a StepExecutor of the stages) and
// derives every metric once (RunCollector with the system part). Knows no kind of hardware.
#include <fmt/format.h>

#include <stdexcept>

#include "models/cluster/system.h"
#include "run/capacity.h"
#include "run/metrics/collector.h"
#include "run/metrics/system_metrics.h"
#include "run/runner.h"
#include "run/step_runner.h"
#include "sim/registry.h"
#include "workloads/parallel_groups.h"

namespace hwsim {
namespace {

// A collective runs among every group of its axis at its stage; a pipeline send (a send_recv
// along pp) between the stage's ranks and the next (or previous) stage's.
std::function<RankGroups(const Op&)> layout_groups(const Parallelism& p) {
  return [p](const Op& op) {
    const auto& c = std::get<CollectiveOp>(op.shape);
    return c.kind == CollectiveKind::send_recv && c.axis == ParallelAxis::pp ? pipeline_pairs(p, op.stage, c.reverse)
                                                                              : axis_groups(p, c.axis, op.stage);
  };
}

class SystemRunner : public Runner {
 public:
  explicit SystemRunner(const Config&) {}

  RunResult run(const RunRequest& request) override {
    const Workload& workload = request.workload;
    init_systemc();
    System system(*request.system);
    std::vector<Device*> stages;
    for (std::int64_t s = 0; s < workload.parallel.pp; ++s)
      stages.push_back(&system.add_device(fmt::format("stage{}", s), request.chip));
    const DeviceInfo& info = stages.front()->info();
    check_system_capacity(system.spec(), workload, info);
    system.check_connected(workload.parallel.ranks());
    Fabric& fabric = system.add_fabric("fabric");
    // Each stage's device stands for its tp·ep·dp ranks.
    const Parallelism& p = workload.parallel;
    std::vector<double> ranks(stages.size(), double(p.tp * p.ep * p.dp));
    RunCollector collector(workload, info, request.streams, ranks);
    collector.add_part(system_metrics(system, fabric, workload, info));
    StepExecutor executor(stages, {&fabric, &system.spec(), layout_groups(workload.parallel)});
    StepRunner runner("system_runner", std::move(executor), workload, framework_for(workload.framework, info),
                      [&](StepResult&& step) { collector.add_step(std::move(step)); });
    sc_core::sc_start();
    rethrow_simulation_failure();
    if (!runner.finished())
      throw std::logic_error("workload '" + workload.spec + "': the simulation stopped with ops still waiting on each other");
    return collector.finish();
  }
};

}  // namespace

HWSIM_REGISTER(Runner, SystemRunner, "system",
               "a system of chips: pipeline stages on their devices, collectives on the links");

}  // namespace hwsim
