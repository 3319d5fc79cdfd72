#pragma once
// The system part of a run's metrics (RunResult::system): what each simulated device (a pipeline
// stage's representative) did, the collectives, the links and the energy of every device and link,
// derived step by step as the run's other metrics are (run/metrics/collector.h).
#include <memory>

#include "models/cluster/fabric.h"
#include "models/cluster/system.h"
#include "run/metrics/collector.h"

namespace hwsim {

// `fabric`: the links the run used (their bytes and energy are read when the run is over).
std::unique_ptr<MetricsPart> system_metrics(const System& system, Fabric& fabric, const Workload& workload,
                                            const DeviceInfo& device);

}  // namespace hwsim
