// Registers the warp model as a GpuCoreModel. It runs --kernel programs (sim/cli/kernel_command.cpp),
// not op-graph workloads: run() explains that in one line.
#include "models/gpu/i_gpu_core.h"
#include "models/gpu/warp/warp_params.h"
#include "sim/config/config.h"
#include "sim/registry.h"

namespace hwsim {
namespace {

class WarpCoreModel : public GpuCoreModel {
 public:
  explicit WarpCoreModel(const Config& config) : params_(warp::WarpParams::from_config(config)) {}
  RunResult run(const Workload&) override {
    workload_error("gpu.core.model=warp runs kernel programs: use --kernel FILE.hwk --grid N --block N "
                   "(see workloads/kernels/README.md); op-graph workloads need gpu.core.model=tile");
  }

 private:
  warp::WarpParams params_;
};

}  // namespace

HWSIM_REGISTER(GpuCoreModel, WarpCoreModel, "warp",
               "SIMT lane by lane: a small kernel language, schedulers, reconvergence, banks, coalescing, caches");

}  // namespace hwsim
