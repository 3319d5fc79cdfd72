#pragma once
// An optional device capability (ops/device.h): a device made of identical parts whose main memory
// adds up (the chips of a spatial deployment). The capacity check (run/capacity) asks it how many
// parts would hold a workload that does not fit, so the refusal names the count and the key that
// sets it; a device without it gets the workload's own advice only.
#include <string>

#include "ops/device.h"

namespace hwsim {

class DeviceParts {
 public:
  virtual ~DeviceParts() = default;
  // One clause for a refusal: how many parts would hold `bytes` of main memory, and how to ask for
  // them ("71 chips of 230 MB hold it (1 given)", and the option that sets the count).
  virtual std::string parts_advice(double bytes) const = 0;
};

// The device's parts capability, or null when it has none.
inline const DeviceParts* device_parts(const Device& device) { return dynamic_cast<const DeviceParts*>(&device); }

}  // namespace hwsim
