#pragma once
// Derives the inference metrics of a finished run (RunResult::inference) on a device with a static
// memory plan (DeviceInfo::static_memory_plan: a microcontroller) from the finalized records and
// the device's memories. One step is one inference. Called once by the runner; absent otherwise.
#include "ops/device.h"
#include "sim/result.h"

namespace hwsim {

InferenceMetrics compute_inference_metrics(const RunResult& result, const DeviceInfo& device);

}  // namespace hwsim
