#pragma once
// Kernel arguments: turns --arg NAME=SPEC strings (or the kernel's declared defaults) into buffer
// contents and scalar values. NAME is a parameter's name or its position (0, 1, ...). Buffer spec:
// [TYPE[COUNT]|COUNT][:INIT[:SEED]], COUNT a product of numbers, grid, block, threads (= grid ×
// block) and scalar parameter names (e.g. "threads*4:random:7", "f32[1048576]:random:1"); INIT
// zeros, ones, iota, random[:SEED], sorted, chase, fill:V. A PTX .u64 parameter of unknown C++
// type is a buffer when its spec names a TYPE, and null when not given (Triton's trailing scratch
// pointers). Scalar spec: a number (or, for integers, such a
// product). Errors are UserError(workload).
#include <map>
#include <string>
#include <vector>

#include "models/gpu/warp/global_memory.h"
#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

struct LaunchArgs {
  std::int64_t grid = 1, block = 32;          // blocks in the grid, threads per block (the products of the dims)
  std::int64_t grid_dim[3] = {0, 1, 1};       // x, y, z (x = 0: 1-D, grid)
  std::int64_t block_dim[3] = {0, 1, 1};      // x, y, z (x = 0: 1-D, block)
  std::uint64_t dynamic_shared = 0;           // bytes of a PTX kernel's `.extern .shared` array
  std::map<std::string, std::string> args;   // NAME (or position) → SPEC
};

// "X[,Y[,Z]]" into dims (each at least 1); `what` names the option in errors (UserError(usage)).
void parse_dims(const std::string& text, const char* what, std::int64_t dims[3]);

// Parses "NAME=SPEC" (for the CLI); throws UserError(usage) when malformed.
std::pair<std::string, std::string> parse_arg(const std::string& text);

// Resolves every parameter of `program`: allocates its buffers in `memory` and returns the value
// (raw bits) of each parameter's register, indexed like program.params.
std::vector<std::uint64_t> bind_args(const Program& program, const LaunchArgs& launch, GlobalMemory& memory);

}  // namespace hwsim::warp
