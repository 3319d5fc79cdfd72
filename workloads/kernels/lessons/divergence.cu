// Lesson 5: warp divergence. 4096 blocks x 256 threads (1 Mi threads); every thread runs one of
// two loops of `iters` iterations with the same arithmetic (2 dependent FMAs each) but different
// constants, chosen by:
//
//   branch_none   no branch: every thread runs loop A (the cost of one path)
//   branch_warp   the warp index (threadIdx.x / 32) is even or odd: warp-aligned, no divergence
//   branch_lane   the lane parity (threadIdx.x & 1): both paths inside every warp, run one after
//                 the other with half the lanes masked off (about twice the time)
//
// Build: nvcc -O3 -arch=sm_90 divergence.cu -o divergence
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

// Both loops stay bounded for |x| <= 1 (no overflow, no denormals).
__device__ float path_a(float x, int iters) {
  float y = 1.0f;
  for (int i = 0; i < iters; ++i) {
    x = fmaf(x, 0.5f, 0.25f);
    y = fmaf(y, 0.75f, x);
  }
  return x + y;
}

__device__ float path_b(float x, int iters) {
  float y = -1.0f;
  for (int i = 0; i < iters; ++i) {
    y = fmaf(y, 0.25f, x);
    x = fmaf(x, -0.5f, y);
  }
  return x - y;
}

__global__ void branch_none(const float* in, float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = path_a(in[i], iters);
}

__global__ void branch_warp(const float* in, float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  if ((threadIdx.x / 32) % 2 == 0) x = path_a(x, iters);
  else x = path_b(x, iters);
  out[i] = x;
}

__global__ void branch_lane(const float* in, float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  if ((threadIdx.x & 1) == 0) x = path_a(x, iters);
  else x = path_b(x, iters);
  out[i] = x;
}

static float host_a(float x, int iters) {
  float y = 1.0f;
  for (int i = 0; i < iters; ++i) { x = fmaf(x, 0.5f, 0.25f); y = fmaf(y, 0.75f, x); }
  return x + y;
}
static float host_b(float x, int iters) {
  float y = -1.0f;
  for (int i = 0; i < iters; ++i) { y = fmaf(y, 0.25f, x); x = fmaf(x, -0.5f, y); }
  return x - y;
}

int main() {
  const int grid = 4096, block = 256, n = grid * block, iters = 64;
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
  const char* names[3] = {"branch_none", "branch_warp", "branch_lane"};
  const int reps = 100;
  for (int k = 0; k < 3; ++k) {
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      if (r == 0) cudaEventRecord(start);
      if (k == 0) branch_none<<<grid, block>>>(d_in, d_out, iters);
      else if (k == 1) branch_warp<<<grid, block>>>(d_in, d_out, iters);
      else branch_lane<<<grid, block>>>(d_in, d_out, iters);
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0;
    for (int i = 0; i < n; ++i) {
      int t = i % block;
      bool a = k == 0 || (k == 1 ? (t / 32) % 2 == 0 : (t & 1) == 0);
      float want = a ? host_a(h_in[i], iters) : host_b(h_in[i], iters);
      err = fmax(err, fabs((double)h_out[i] - want) / fmax(1.0, fabs(want)));
    }
    printf("%-12s %8.2f us  max rel err %.2e %s\n", names[k], ms * 1000.0 / reps, err, err < 1e-4 ? "ok" : "WRONG");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
