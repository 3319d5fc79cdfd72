#include "app/serving_simulate.h"

#include "app/serving_metrics.h"
#include "app/serving_runner.h"
#include "app/simulate.h"
#include "sim/device/device.h"
#include "sim/error.h"
#include "sim/registry.h"

namespace hwsim {

RunResult simulate_serving(const Config& config, const Workload& workload) {
  const ServeSpec& spec = *workload.serve;
  init_systemc();
  auto device = Registry<Device>::create(config.kind(), config, config.value("kind").origin + ": kind");
  const DeviceInfo& info = device->info();
  KvPool pool = size_kv_pool(spec, info.main_memory().bytes, info.name);
  std::string framework = workload.framework.empty() ? info.framework : workload.framework;
  ServingRunner runner("serving_runner", *device, spec, pool, framework);
  sc_core::sc_start();
  rethrow_simulation_failure();
  ServingLog log = runner.take_log();
  RunResult result;
  describe_device(result, info);
  result.steps = std::move(log.distinct);
  finalize(result);
  result.serving = compute_serving_metrics(spec, pool, log);
  return result;
}

}  // namespace hwsim
