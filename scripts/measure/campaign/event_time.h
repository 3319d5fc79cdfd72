// event_ms(warm, launch): runs launch() `warm` times, then once more between two CUDA events on
// the default stream, and returns that last launch's time in milliseconds (for the campaign's
// standalone .cu programs; a failed launch ends the program through CK).
#pragma once
#include <cuda_runtime.h>

#include "cuda_check.h"

template <class Launch>
float event_ms(int warm, Launch launch) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int i = 0; i < warm; ++i) launch();
  CK(cudaEventRecord(e0));
  launch();
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  CK(cudaGetLastError());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return ms;
}
