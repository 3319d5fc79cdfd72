#include "ops/device.h"

#include "sim/config/config.h"
#include "sim/registry.h"

namespace hwsim {

std::unique_ptr<Device> make_device(const Config& chip) {
  return Registry<Device>::create(chip.kind(), chip, chip.value("kind").origin + ": kind");
}

std::vector<std::string> device_kinds() { return Registry<Device>::names(); }

Config load_chip(const std::string& chip, const std::vector<std::string>& overrides) {
  return load_config(chip, overrides, device_kinds());
}

}  // namespace hwsim
