#pragma once
// Parser of the .hwk kernel language (documented in workloads/kernels/README.md).
// Errors are UserError(workload) lines "FILE:LINE:COL: what is wrong".
#include <string>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

// Parses `source`; `file` names it in errors and reports.
Program parse_kernel(const std::string& source, const std::string& file);

// Reads and parses a .hwk file; a missing file is UserError(io).
Program load_kernel(const std::string& path);

// Fills Instr::reconverge of every branch with its immediate post-dominator.
void compute_reconvergence(Program& program);

// A readable listing of the parsed program (one instruction per line, with its pipe).
std::string disassemble(const Program& program);

}  // namespace hwsim::warp
