// Lesson 3: single-precision matrix product C = A * B, all three N x N row-major (N = 512).
//
//   sgemm_naive     one thread per element of C, block (16, 16), grid (N/16, N/16); every operand
//                   read from global memory (2 loads per FMA)
//   sgemm_tiled     16x16 tiles of A and B staged in shared memory (2 shared loads per FMA,
//                   each global element read N/16 times instead of N)
//   sgemm_regblock  a 64x64 tile of C per block of 16x16 threads, each thread 4x4 outputs held
//                   in registers, 16-deep k-slices of A and B in shared memory (8 shared loads per
//                   16 FMAs); grid (N/64, N/64)
//
// Build: nvcc -O3 -arch=sm_90 sgemm.cu -o sgemm
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

#define TILE 16

__global__ void sgemm_naive(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// n must be a multiple of TILE.
__global__ void sgemm_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Block tile BM x BN = 64 x 64, k-slice BK = 16, 256 threads as 16 x 16; thread (tx, ty) owns
// C rows ty + 16*i and columns tx + 16*j (i, j < 4). n must be a multiple of 64.
#define BM 64
#define BN 64
#define BK 16
__global__ void sgemm_regblock(const float* A, const float* B, float* C, int n) {
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  int tx = threadIdx.x, ty = threadIdx.y;
  int t = ty * 16 + tx;  // 0..255
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {  // 1024 elements of each slice, 4 per thread
      int idx = t + 256 * l;
      As[idx / BK][idx % BK] = A[(row0 + idx / BK) * n + k0 + idx % BK];
      Bs[idx / BN][idx % BN] = B[(k0 + idx / BN) * n + col0 + idx % BN];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[ty + 16 * i][k];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) C[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
}

int main() {
  const int n = 512;
  const size_t count = (size_t)n * n, bytes = count * sizeof(float);
  std::vector<float> hA(count), hB(count), hC(count), ref(count);
  srand(1);
  for (size_t i = 0; i < count; ++i) hA[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (size_t i = 0; i < count; ++i) hB[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += (double)hA[i * n + k] * hB[k * n + j];
      ref[i * n + j] = (float)s;
    }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, bytes));
  CHECK(cudaMalloc(&dB, bytes));
  CHECK(cudaMalloc(&dC, bytes));
  CHECK(cudaMemcpy(dA, hA.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB.data(), bytes, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const char* names[3] = {"sgemm_naive", "sgemm_tiled", "sgemm_regblock"};
  const int reps = 50;
  for (int k = 0; k < 3; ++k) {
    CHECK(cudaMemset(dC, 0, bytes));
    dim3 block(16, 16);
    dim3 grid = k < 2 ? dim3(n / 16, n / 16) : dim3(n / BN, n / BM);
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      if (r == 0) cudaEventRecord(start);
      switch (k) {
        case 0: sgemm_naive<<<grid, block>>>(dA, dB, dC, n); break;
        case 1: sgemm_tiled<<<grid, block>>>(dA, dB, dC, n); break;
        default: sgemm_regblock<<<grid, block>>>(dA, dB, dC, n); break;
      }
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    CHECK(cudaMemcpy(hC.data(), dC, bytes, cudaMemcpyDeviceToHost));
    double err = 0;
    for (size_t i = 0; i < count; ++i) err = fmax(err, fabs((double)hC[i] - ref[i]));
    double us = ms * 1000.0 / reps;
    printf("%-16s %8.2f us  %7.1f GFLOP/s  max err %.2e %s\n", names[k], us, 2.0 * n * n * n / us * 1e-3, err,
           err < 1e-3 ? "ok" : "WRONG");
  }
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
