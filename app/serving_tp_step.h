#pragma once
// One engine step of a tensor-parallel serving instance (docs/serving.md, "Several devices"): the
// step graph of one rank (workloads/llm/step_lowering: lower_parallel_llm_step with tp), its device
// ops run on the instance's representative device — its tp ranks do identical sharded work, as in
// app/system_runner — in segments between the collectives, each collective (the tp all-reduces,
// the logits all-gather) on the links among the instance's devices. In the calling SystemC thread.
#include <vector>

#include "models/cluster/collective_plan.h"
#include "models/cluster/fabric.h"
#include "models/cluster/system_spec.h"
#include "sim/device/device.h"
#include "sim/result.h"

namespace hwsim {

// Records of the step, times from its start. `ranks`: the instance's devices (one group).
std::vector<WorkRecord> run_tp_step(Device& device, const StepProgram& program, const RankGroups& ranks,
                                    const SystemSpec& system, Fabric& fabric);

}  // namespace hwsim
