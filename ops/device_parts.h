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
  // A device that deploys as many parts as its workload needs (a spatial chip's spatial.fit_chips)
  // grows to the fewest whose memory holds `bytes` and returns true; its info() changes with it.
  // Called before the device runs. False: the count is fixed, or no allowed count holds `bytes`.
  virtual bool fit_parts(double /*bytes*/) { return false; }
};

// The device's parts capability, or null when it has none.
inline DeviceParts* device_parts(Device& device) { return dynamic_cast<DeviceParts*>(&device); }

}  // namespace hwsim
