#pragma once
// Does a workload fit the devices it runs on: the one place a run's memory is checked before it
// runs. A refusal is one line (UserError(workload)) with what it holds, what the device holds and,
// where the workload has it, advice on a layout that would fit.
#include "models/cluster/system_spec.h"
#include "ops/device.h"
#include "ops/device_parts.h"
#include "workloads/workload.h"

namespace hwsim {

// On one device: a training job's footprint; a language model's (weights, KV cache, activations);
// any other workload, each op's inputs and outputs (unless the device plans its own memory). `parts`:
// the device's parts capability (ops/device_parts.h): a device that sizes itself grows to hold the
// workload (its `device` info changes with it); otherwise a refusal names the count that would.
void check_capacity(const DeviceInfo& device, const Workload& workload, DeviceParts* parts = nullptr);

// On a system: ranks ≤ devices; a collective's buffer ≤ each rank's memory; each pipeline stage's
// footprint ≤ its devices' memory (a layout without per-stage footprints: check_capacity per rank).
void check_system_capacity(const SystemSpec& system, const Workload& workload, const DeviceInfo& device);

}  // namespace hwsim
