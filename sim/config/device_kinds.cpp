#include "sim/config/device_kinds.h"

#include "sim/device/device.h"
#include "sim/registry.h"

namespace hwsim {

std::vector<std::string> device_kinds() { return Registry<Device>::names(); }

}  // namespace hwsim
