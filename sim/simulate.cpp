#include "sim/simulate.h"

#include "models/gpu/i_gpu_core.h"
#include "sim/registry.h"

namespace hwsim {

RunResult simulate(const Config& config, const Workload& workload) {
  auto core = Registry<GpuCoreModel>::create(config.text("gpu.core.model"), config,
                                             config.value("gpu.core.model").origin + ": gpu.core.model");
  return core->run(workload);
}

}  // namespace hwsim
