#pragma once
#include <cstdint>
#include <vector>

#include "models/gpu/kernel.h"

namespace hwsim {

// A kernel as the machine runs it: its figures (`kernel`, whose ctas are left empty) and its CTAs
// packed, every CTA's operands in one array. A device that keeps lowered kernels to run them again
// (a long generate, every step) holds a few contiguous arrays instead of two small heap arrays per
// CTA, which the host's caches keep up with.
struct PackedKernel {
  struct Cta {
    double flops = 0, scratch_bytes = 0;
    std::uint32_t reads = 0, read_count = 0;    // operands[reads, reads + read_count)
    std::uint32_t writes = 0, write_count = 0;  // operands[writes, writes + write_count)
  };
  Kernel kernel;
  std::vector<Cta> ctas;
  std::vector<OperandRead> operands;
  static PackedKernel pack(Kernel kernel);
};

}  // namespace hwsim
