#pragma once
// A kernel program from its file, by extension: .hwk (the warp model's own language; also any
// name other than these), .ptx (as
// nvcc -ptx, clang or Triton write it) or .cu (a student's CUDA file: Debian's clang compiles its
// kernels to PTX through hwsim's shim header, cuda_shim.inc; no CUDA toolkit, no network).
#include <string>

#include "models/gpu/warp/isa.h"

namespace hwsim {

// The program of kernel `entry` ("" = the file's only kernel; .hwk files hold one). Errors are
// UserError lines; a .cu file clang cannot compile prints clang's messages to stderr first.
warp::Program load_kernel_program(const std::string& path, const std::string& entry);

// `hwsim --kernel F --list`: the file's kernels and their parameters, one block per kernel.
std::string list_kernel_entries(const std::string& path);

// The PTX clang makes of a .cu file (compiled in a fresh temporary directory, removed after).
std::string compile_cuda(const std::string& path);

}  // namespace hwsim
