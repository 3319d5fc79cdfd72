// CK(call): a CUDA runtime call whose failure ends the measurement program with the error, the
// line and the call (for the campaign's standalone .cu programs).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                       \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s at %d: %s\n", cudaGetErrorString(e_), __LINE__, #x); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)
