// Lesson 6: 1-D 7-point stencil (radius 3) over N = 4 Mi floats,
//   out[i] = sum_{k=-3..3} w[k] * in[i + k]   (elements outside [0, n) count as 0).
//
//   stencil_global   every thread reads its 7 neighbours straight from global memory (each input
//                    element is loaded by 7 threads; the caches absorb most of it)
//   stencil_shared   each block loads its blockDim.x elements plus a 3-element halo on each side
//                    into dynamic shared memory once, then reads the neighbours from there
//                    (dynamic shared memory: (blockDim.x + 6) floats)
//
// Block 256, grid n / 256. Build: nvcc -O3 -arch=sm_90 stencil.cu -o stencil
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define RADIUS 3

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__device__ float weight(int k) {  // k in -3..3: 1/16, 2/16, 3/16, 4/16, 3/16, 2/16, 1/16
  return (4 - (k < 0 ? -k : k)) * 0.0625f;
}

__global__ void stencil_global(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int j = i + k;
    if (j >= 0 && j < n) acc += weight(k) * in[j];
  }
  out[i] = acc;
}

__global__ void stencil_shared(const float* in, float* out, int n) {
  extern __shared__ float s[];  // blockDim.x + 2 * RADIUS
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int li = threadIdx.x + RADIUS;
  s[li] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = i - RADIUS;
    int right = i + blockDim.x;
    s[threadIdx.x] = left >= 0 ? in[left] : 0.0f;
    s[li + blockDim.x] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (i >= n) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k) acc += weight(k) * s[li + k];
  out[i] = acc;
}

int main() {
  const int n = 4 << 20, block = 256, grid = (n + block - 1) / block;
  std::vector<float> h_in(n), h_out(n);
  srand(1);
  for (int i = 0; i < n; ++i) h_in[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const char* names[2] = {"stencil_global", "stencil_shared"};
  const int reps = 100;
  const size_t shmem = (block + 2 * RADIUS) * sizeof(float);
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemset(d_out, 0, n * sizeof(float)));
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      if (r == 0) cudaEventRecord(start);
      if (k == 0) stencil_global<<<grid, block>>>(d_in, d_out, n);
      else stencil_shared<<<grid, block, shmem>>>(d_in, d_out, n);
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0;
    for (int i = 0; i < n; ++i) {
      double want = 0;
      for (int d = -RADIUS; d <= RADIUS; ++d)
        if (i + d >= 0 && i + d < n) want += (4 - abs(d)) * 0.0625 * h_in[i + d];
      err = fmax(err, fabs(want - h_out[i]));
    }
    double us = ms * 1000.0 / reps;
    printf("%-15s %8.2f us  %7.1f GB/s  max err %.2e %s\n", names[k], us, 8.0 * n / us * 1e-3, err,
           err < 1e-5 ? "ok" : "WRONG");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
