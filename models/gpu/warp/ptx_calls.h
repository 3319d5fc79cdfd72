#pragma once
// Calls to .func, inlined as the PTX reader reads a kernel (internal to ptx_reader.cpp). A
// `call[.uni] (RET), NAME, (ARGS)` becomes: the arguments copied from the caller's .param
// variables into the callee's parameters, the callee's body (its registers renamed apart per
// function, its labels per call, `ret` a branch to its end), and its return value copied into the
// caller's RET. ptxas inlines small device functions too; recursion is refused.
#include <cstddef>
#include <string>
#include <vector>

#include "models/gpu/warp/ptx_scan.h"

namespace hwsim::warp {

// items[first, last) (a kernel's body) with every call to a .func of `items` expanded in place.
// Errors are UserError(workload) lines "FILE:LINE:COL: ...".
std::vector<PtxItem> inline_calls(const std::vector<PtxItem>& items, std::size_t first, std::size_t last,
                                  const std::string& file);

}  // namespace hwsim::warp
