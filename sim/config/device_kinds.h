#pragma once
// The device kinds a chip file may name (`kind = "..."`): the names registered with
// HWSIM_REGISTER(Device, ...) (sim/device/device.h), sorted.
#include <string>
#include <vector>

namespace hwsim {

std::vector<std::string> device_kinds();

}  // namespace hwsim
