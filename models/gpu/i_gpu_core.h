#pragma once
// Interface of a GPU core model: runs a workload's steps on one GPU and reports per-kernel
// records. Implementations register by name (sim/registry.h) and are chosen with gpu.core.model.
#include "sim/result.h"
#include "workloads/workload.h"

namespace hwsim {

class GpuCoreModel {
 public:
  static constexpr const char* kind_name = "gpu core";
  virtual ~GpuCoreModel() = default;

  // Simulates every step of `workload` in one SystemC elaboration (call once per process).
  // Throws UserError(workload) for work the model or chip cannot run (unsupported dtype, too big).
  virtual RunResult run(const Workload& workload) = 0;
};

}  // namespace hwsim
