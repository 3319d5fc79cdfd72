// Lesson 7: row-wise softmax of a 4096 x 1024 float matrix, one block of 256 threads per row:
//   y[r][j] = exp(x[r][j] - max_r) / sum_j exp(x[r][j] - max_r)
// Each thread strides over the row (4 elements each); two block-wide reductions (max, then sum).
//
//   softmax_shared    both reductions as a shared-memory tree (8 steps, a __syncthreads each)
//   softmax_shuffle   each warp reduces with __shfl_xor_sync, then warp 0 combines the 8 warp
//                     results from shared memory (2 barriers per reduction)
//
// exp is __expf (the fast hardware exponential) in both. Grid 4096, block 256.
// Build: nvcc -O3 -arch=sm_90 softmax.cu -o softmax
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define THREADS 256

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

// blockDim.x must be THREADS.
__global__ void softmax_shared(const float* x, float* y, int cols) {
  __shared__ float red[THREADS];
  const float* row = x + (size_t)blockIdx.x * cols;
  float* out = y + (size_t)blockIdx.x * cols;
  int tid = threadIdx.x;

  float m = -3.0e38f;
  for (int j = tid; j < cols; j += blockDim.x) m = fmaxf(m, row[j]);
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();  // everyone has read red[0] before it is reused

  float sum = 0.0f;
  for (int j = tid; j < cols; j += blockDim.x) sum += __expf(row[j] - m);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int j = tid; j < cols; j += blockDim.x) out[j] = __expf(row[j] - m) * inv;
}

__device__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// blockDim.x must be THREADS (8 warps).
__global__ void softmax_shuffle(const float* x, float* y, int cols) {
  __shared__ float warp_part[THREADS / 32];
  __shared__ float result;
  const float* row = x + (size_t)blockIdx.x * cols;
  float* out = y + (size_t)blockIdx.x * cols;
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  float m = -3.0e38f;
  for (int j = tid; j < cols; j += blockDim.x) m = fmaxf(m, row[j]);
  m = warp_max(m);
  if (lane == 0) warp_part[warp] = m;
  __syncthreads();
  if (warp == 0) {
    float v = lane < THREADS / 32 ? warp_part[lane] : -3.0e38f;
    v = warp_max(v);
    if (lane == 0) result = v;
  }
  __syncthreads();
  m = result;

  float sum = 0.0f;
  for (int j = tid; j < cols; j += blockDim.x) sum += __expf(row[j] - m);
  sum = warp_sum(sum);
  __syncthreads();  // everyone has read `result` before it is rewritten
  if (lane == 0) warp_part[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    float v = lane < THREADS / 32 ? warp_part[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) result = v;
  }
  __syncthreads();
  float inv = 1.0f / result;
  for (int j = tid; j < cols; j += blockDim.x) out[j] = __expf(row[j] - m) * inv;
}

int main() {
  const int rows = 4096, cols = 1024;
  const size_t count = (size_t)rows * cols, bytes = count * sizeof(float);
  std::vector<float> h_x(count), h_y(count);
  srand(1);
  for (size_t i = 0; i < count; ++i) h_x[i] = (float)rand() / (float)RAND_MAX * 8.0f - 4.0f;
  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const char* names[2] = {"softmax_shared", "softmax_shuffle"};
  const int reps = 100;
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemset(d_y, 0, bytes));
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      if (r == 0) cudaEventRecord(start);
      if (k == 0) softmax_shared<<<rows, THREADS>>>(d_x, d_y, cols);
      else softmax_shuffle<<<rows, THREADS>>>(d_x, d_y, cols);
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    CHECK(cudaMemcpy(h_y.data(), d_y, bytes, cudaMemcpyDeviceToHost));
    double err = 0;
    for (int r = 0; r < rows; ++r) {
      const float* xr = &h_x[(size_t)r * cols];
      double m = -1e300, s = 0;
      for (int j = 0; j < cols; ++j) m = fmax(m, xr[j]);
      for (int j = 0; j < cols; ++j) s += exp(xr[j] - m);
      for (int j = 0; j < cols; ++j) {
        double want = exp(xr[j] - m) / s;
        err = fmax(err, fabs(want - h_y[(size_t)r * cols + j]) / want);
      }
    }
    double us = ms * 1000.0 / reps;
    printf("%-16s %8.2f us  %7.1f GB/s  max rel err %.2e %s\n", names[k], us, 2.0 * bytes / us * 1e-3, err,
           err < 1e-4 ? "ok" : "WRONG");
  }
  cudaFree(d_x);
  cudaFree(d_y);
  return 0;
}
