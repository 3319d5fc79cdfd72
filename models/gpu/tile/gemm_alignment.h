#pragma once
// Which GEMM kernels a library can use for an operand layout. Hopper's fast kernels load tiles
// with TMA, whose descriptors need 16-byte aligned row pitches and base addresses (CUDA driver
// API, cuTensorMapEncodeTiled: globalAddress and globalStrides multiples of 16); Ampere-style
// kernels need 16 bytes for their widest vector loads (cp.async.cg 16). A matrix whose row pitch
// (leading dimension × element size) or base offset is not a multiple of 16 bytes can only be
// loaded in narrower accesses: cuBLAS falls back to CUTLASS kernels of that alignment ("align1",
// "align2", ...). For x[M,K]·W[N,K]ᵀ with packed rows the pitches are K (x and W) and N (out):
// M never matters, K misaligns both inputs, N the output.
#include <string>

#include "ops/op.h"

namespace hwsim {

struct GemmAlignment {
  // Widest access (bytes, a power of two, at most 16) each matrix's rows allow.
  int a = 16, b = 16, c = 16;
  int vector_bytes() const;            // the narrowest of the three: the fallback kernel's access width
  bool tma() const { return vector_bytes() >= 16; }
  std::string reason;                  // why the fast path is impossible ("" when it is possible)
};

GemmAlignment gemm_alignment(const GemmOp& gemm);

}  // namespace hwsim
