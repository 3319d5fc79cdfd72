// Lesson 1: parallel reduction (sum of N floats), after Mark Harris, "Optimizing Parallel
// Reduction in CUDA". Every kernel writes one partial sum per block to out[blockIdx.x]; the host
// adds the partials (no second pass on the GPU). Block size 256.
//
//   reduce_interleaved_divergent  interleaved addressing, `tid % (2*s)`: divergent warps
//   reduce_interleaved_strided    interleaved addressing, index = 2*s*tid: no divergence, bank conflicts
//   reduce_sequential             sequential addressing (stride halves): conflict-free
//   reduce_first_add              as sequential, each thread adds two elements while loading (half the blocks)
//   reduce_unrolled<BLOCK>        first add + the last warp unrolled with __shfl_down_sync
//
// Build: nvcc -O3 -arch=sm_90 reduction.cu -o reduction
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

// 1. Interleaved addressing: thread tid works when tid is a multiple of 2*s. The active threads
// are scattered over all warps, so every warp diverges and the `%` is slow.
__global__ void reduce_interleaved_divergent(const float* in, float* out, unsigned n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 2. Interleaved addressing with a strided index: the active threads are contiguous (whole warps
// retire), but index = 2*s*tid makes the threads of a warp hit the same shared-memory banks.
__global__ void reduce_interleaved_strided(const float* in, float* out, unsigned n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 3. Sequential addressing: the stride halves each step and thread tid adds sdata[tid + s]:
// contiguous active threads, consecutive banks.
__global__ void reduce_sequential(const float* in, float* out, unsigned n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 4. First add during the global load: each block covers 2*blockDim.x elements, so half the
// blocks (and no thread idles in the first step).
__global__ void reduce_first_add(const float* in, float* out, unsigned n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 5. First add + tree in shared memory down to 64 values, then the first warp finishes with
// register shuffles (no __syncthreads in the last 6 steps). BLOCK is a compile-time block size.
template <int BLOCK>
__global__ void reduce_unrolled(const float* in, float* out, unsigned n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i + BLOCK < n) v += in[i + BLOCK];
  sdata[tid] = v;
  __syncthreads();
#pragma unroll
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    v = sdata[tid] + sdata[tid + 32];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

int main() {
  const unsigned n = 1u << 20;
  const unsigned block = 256;
  std::vector<float> h(n);
  srand(1);
  double ref = 0;
  for (unsigned i = 0; i < n; ++i) {
    h[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
    ref += h[i];
  }
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n / block * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);

  const char* names[5] = {"reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential",
                          "reduce_first_add", "reduce_unrolled<256>"};
  const int reps = 100;
  for (int k = 0; k < 5; ++k) {
    unsigned grid = k < 3 ? n / block : n / (2 * block);
    size_t shmem = k < 4 ? block * sizeof(float) : 0;
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      if (r == 0) cudaEventRecord(start);
      switch (k) {
        case 0: reduce_interleaved_divergent<<<grid, block, shmem>>>(d_in, d_out, n); break;
        case 1: reduce_interleaved_strided<<<grid, block, shmem>>>(d_in, d_out, n); break;
        case 2: reduce_sequential<<<grid, block, shmem>>>(d_in, d_out, n); break;
        case 3: reduce_first_add<<<grid, block, shmem>>>(d_in, d_out, n); break;
        default: reduce_unrolled<256><<<grid, block>>>(d_in, d_out, n); break;
      }
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    std::vector<float> partial(grid);
    CHECK(cudaMemcpy(partial.data(), d_out, grid * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (unsigned b = 0; b < grid; ++b) sum += partial[b];
    double us = ms * 1000.0 / reps;
    printf("%-30s grid %5u  %8.2f us  %7.1f GB/s  sum %.4f (ref %.4f) %s\n", names[k], grid, us,
           n * 4.0 / us * 1e-3, sum, ref, fabs(sum - ref) < 1e-2 ? "ok" : "WRONG");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
