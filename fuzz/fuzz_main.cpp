// libFuzzer entry point of one target: built once per target with -DHWSIM_FUZZ_TARGET=name
// (fuzz/CMakeLists.txt), so each target is its own executable (fuzz_units, fuzz_config, ...).
#include <cstddef>
#include <cstdint>

#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hwsim::fuzz::HWSIM_FUZZ_TARGET(data, size);
  return 0;
}
