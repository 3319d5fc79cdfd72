#pragma once
// Kernel arguments: turns --arg NAME=SPEC strings (or the kernel's declared defaults) into buffer
// contents and scalar values. Buffer spec: COUNT[:INIT[:SEED]], COUNT a product of numbers, grid,
// block, threads (= grid × block) and scalar parameter names (e.g. "threads*4:random:7").
// Scalar spec: a number (or, for integers, such a product). Errors are UserError(workload).
#include <map>
#include <string>
#include <vector>

#include "models/gpu/warp/global_memory.h"
#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

struct LaunchArgs {
  std::int64_t grid = 1, block = 32;
  std::map<std::string, std::string> args;   // NAME → SPEC
};

// Parses "NAME=SPEC" (for the CLI); throws UserError(usage) when malformed.
std::pair<std::string, std::string> parse_arg(const std::string& text);

// Resolves every parameter of `program`: allocates its buffers in `memory` and returns the value
// (raw bits) of each parameter's register, indexed like program.params.
std::vector<std::uint64_t> bind_args(const Program& program, const LaunchArgs& launch, GlobalMemory& memory);

}  // namespace hwsim::warp
