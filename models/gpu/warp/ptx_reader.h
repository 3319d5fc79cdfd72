#pragma once
// The PTX reader: a module as nvcc (-ptx), clang (NVPTX) or Triton writes it, one of its `.entry`
// kernels into the warp model's Program (statement_parser.h parses the instructions). Kernel
// parameters are named by position ("0", "1", ...); a mangled C++ name's signature says which are
// buffers and of what element type (float* is an f32 buffer), an unmangled one leaves .u64
// parameters untyped (a buffer when the launch's argument names one). Errors are UserError(workload)
// lines "FILE:LINE:COL: what is wrong".
#include <string>
#include <vector>

#include "models/gpu/warp/isa.h"

namespace hwsim::warp {

struct PtxParam {
  std::string ptx_name;     // as in the .entry's list
  Type ptx_type = Type::u32;
  std::string cpp_type;     // from the demangled signature ("" when not mangled)
};

struct PtxEntry {
  std::string name;         // as in the module (mangled)
  std::string demangled;    // the C++ signature, or the name when not mangled
  std::string short_name;   // the demangled name without its parameter list (templates keep <..>)
  int line = 0;
  std::vector<PtxParam> params;
};

// The module's kernels, in order.
std::vector<PtxEntry> list_ptx_entries(const std::string& source, const std::string& file);

// Parses kernel `entry` (a mangled name, a demangled signature, the name without its parameter
// list, or its base name without template arguments when that is unique; "" = the module's only
// kernel) of the module in `source`.
Program parse_ptx(const std::string& source, const std::string& file, const std::string& entry);

// The entries for `hwsim --kernel F.ptx --list`: one line per kernel and its parameters.
std::string describe_entries(const std::vector<PtxEntry>& entries);

}  // namespace hwsim::warp
