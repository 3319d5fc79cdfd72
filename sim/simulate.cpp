#include "sim/simulate.h"

#include "models/gpu/i_gpu_core.h"
#include "sim/error.h"
#include "sim/registry.h"
#include "workloads/llm/capacity.h"

namespace hwsim {

namespace {
// A language-model run must hold its weights, KV cache and activations in device memory.
void check_capacity(const Config& config, const Workload& workload) {
  if (!workload.llm) return;
  double capacity = config.number("memory.hbm.size");
  const LlmFacts& f = *workload.llm;
  if (footprint_bytes(f, f.batch, f.context) > capacity)
    workload_error("workload '" + workload.spec + "' does not fit " + config.text("name") + ": " +
                   fit_advice(workload, capacity));
}
}  // namespace

RunResult simulate(const Config& config, const Workload& workload) {
  check_capacity(config, workload);
  auto core = Registry<GpuCoreModel>::create(config.text("gpu.core.model"), config,
                                             config.value("gpu.core.model").origin + ": gpu.core.model");
  return core->run(workload);
}

}  // namespace hwsim
