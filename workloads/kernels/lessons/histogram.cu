// Lesson 4: 256-bin histogram of 4 Mi bytes (unsigned char).
//
//   hist_global   every thread adds its bytes straight into the global histogram with atomicAdd:
//                 all 4M atomics land on 256 addresses in L2
//   hist_shared   each block builds a private histogram in shared memory (shared atomics), then
//                 merges its 256 bins into the global one: 256 global atomics per block
//
// Both use a grid-stride loop over the input; grid 1024 x block 256 (16 bytes per thread).
// Build: nvcc -O3 -arch=sm_90 histogram.cu -o histogram
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BINS 256

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__global__ void hist_global(const unsigned char* data, unsigned* hist, unsigned n) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&hist[data[i]], 1u);
}

// blockDim.x must be at least BINS.
__global__ void hist_shared(const unsigned char* data, unsigned* hist, unsigned n) {
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  if (threadIdx.x < BINS) {
    unsigned c = local[threadIdx.x];
    if (c != 0) atomicAdd(&hist[threadIdx.x], c);
  }
}

int main() {
  const unsigned n = 4u << 20;
  std::vector<unsigned char> h(n);
  srand(1);
  unsigned ref[BINS] = {0};
  for (unsigned i = 0; i < n; ++i) {
    h[i] = (unsigned char)(rand() & 0xff);
    ref[h[i]]++;
  }
  unsigned char* d_data;
  unsigned* d_hist;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, h.data(), n, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const char* names[2] = {"hist_global", "hist_shared"};
  const int grid = 1024, block = 256, reps = 100;
  for (int k = 0; k < 2; ++k) {
    float total_ms = 0;
    bool ok = true;
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned)));
      cudaEventRecord(start);
      if (k == 0) hist_global<<<grid, block>>>(d_data, d_hist, n);
      else hist_shared<<<grid, block>>>(d_data, d_hist, n);
      cudaEventRecord(stop);
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaGetLastError());
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      if (r >= 0) total_ms += ms;
    }
    unsigned got[BINS];
    CHECK(cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; ++b) ok = ok && got[b] == ref[b];
    double us = total_ms * 1000.0 / reps;
    printf("%-12s %8.2f us  %7.1f GB/s  %s\n", names[k], us, n / us * 1e-3, ok ? "ok" : "WRONG");
  }
  cudaFree(d_data);
  cudaFree(d_hist);
  return 0;
}
