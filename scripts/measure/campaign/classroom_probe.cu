// Device probes behind the warp model's classroom mechanisms (docs/calibration.md, "Classroom
// kernels"): what an empty kernel costs in a CUDA graph, what reduction_shuffle's atomics add over
// plain stores, how fast atomics to one address are served at L2, and what a __syncthreads costs
// with 1 to 32 warps. Timed as classroom.cu times its cases (CUDA graph replays, median of 7).
//
// Build and run (on the device machine):
//   nvcc -O3 -arch=sm_90 -o classroom_probe scripts/measure/campaign/classroom_probe.cu && ./classroom_probe
// Output: one line per probe, "name seconds_per_launch [derived figures]".
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

#define FULL_MASK 0xffffffffu

__global__ void empty_kernel() {}

// reduction_shuffle as classroom.cu has it (mode 0), with the lane-0 atomic replaced by a plain
// store to a slot of its own (mode 1) or by an atomic to a slot of its own (mode 2), or dropped
// (mode 3, a store only if the sum is a value it never is).
template <int Mode>
__global__ void reduction_variant(float* x, float* out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[gid];
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(FULL_MASK, v, offset);  // as classroom.cu's five
  unsigned lane = threadIdx.x & 31;
  if (lane != 0) return;
  if (Mode == 0) atomicAdd(&out[blockIdx.x], v);
  if (Mode == 1) out[gid / 32] = v;
  if (Mode == 2) atomicAdd(&out[gid / 32], v);
  if (Mode == 3 && v == -12345.0f) out[gid / 32] = v;
}

// Each warp's lane 0 adds `k` times into out[slot]: slot = block (all warps of a block share one
// address) or slot = the warp (an address of its own). Loop not unrolled.
__global__ void red_chain(float* out, int k, int per_warp) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned slot = per_warp ? warp * 32 : blockIdx.x * 32;  // 128 B apart: one L2 line each
  if ((threadIdx.x & 31) != 0) return;
#pragma unroll 1
  for (int i = 0; i < k; ++i) atomicAdd(&out[slot], 1.0f);
}

// `k` barriers in a loop; one add per trip keeps the loop.
__global__ void bar_loop(float* out, int k) {
  float a = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < k; ++i) {
    __syncthreads();
    a += 1.0f;
  }
  if (a == -1.0f) out[0] = a;
}

template <class L>
static double time_graph(L launch, cudaStream_t s, int K) {
  for (int i = 0; i < 3; ++i) launch(s);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int k = 0; k < K; ++k) launch(s);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<double> ts;
  for (int r = 0; r < 7; ++r) {
    float ms = 0;
    CK(cudaEventRecord(a, s));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    ts.push_back(ms * 1e-3 / K);
  }
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  std::sort(ts.begin(), ts.end());
  return ts[3];
}

int main() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t n = size_t(1) << 26;
  float *x, *out;
  CK(cudaMalloc(&x, n * sizeof(float)));
  CK(cudaMalloc(&out, (n / 32 + 64) * sizeof(float)));
  CK(cudaMemset(x, 0, n * sizeof(float)));
  CK(cudaMemset(out, 0, (n / 32 + 64) * sizeof(float)));
  // spin up the clocks
  for (int i = 0; i < 200; ++i) bar_loop<<<1056, 256, 0, s>>>(out, 4096);
  CK(cudaStreamSynchronize(s));

  for (int grid : {1, 132, 1056, 4096, 16384, 65536})
    for (int block : {32, 256, 1024}) {
      double t = time_graph([&](cudaStream_t st) { empty_kernel<<<grid, block, 0, st>>>(); }, s, 1000);
      std::printf("empty g%d b%d %.4g us\n", grid, block, t * 1e6);
    }

  for (size_t elems : {size_t(1) << 16, size_t(1) << 20, size_t(1) << 24})
    for (int block : {32, 64, 128, 256, 512, 1024}) {
      unsigned grid = unsigned(elems / block);
      int K = elems >= (1u << 24) ? 100 : 1000;
      double t0 = time_graph([&](cudaStream_t st) { reduction_variant<0><<<grid, block, 0, st>>>(x, out); }, s, K);
      double t1 = time_graph([&](cudaStream_t st) { reduction_variant<1><<<grid, block, 0, st>>>(x, out); }, s, K);
      double t2 = time_graph([&](cudaStream_t st) { reduction_variant<2><<<grid, block, 0, st>>>(x, out); }, s, K);
      double t3 = time_graph([&](cudaStream_t st) { reduction_variant<3><<<grid, block, 0, st>>>(x, out); }, s, K);
      std::printf("reduction n%zu b%d atomic_block %.4g us store_own %.4g us atomic_own %.4g us none %.4g us\n", elems,
                  block, t0 * 1e6, t1 * 1e6, t2 * 1e6, t3 * 1e6);
    }

  const int k = 256;
  for (int per_warp : {0, 1})
    for (int block : {32, 64, 128, 256, 512, 1024})
      for (int grid : {1, 132}) {
        double t = time_graph([&](cudaStream_t st) { red_chain<<<grid, block, 0, st>>>(out, k, per_warp); }, s, 200);
        int warps = block / 32;
        // atomics one address receives: k x warps (shared) or k (own)
        double per_addr = per_warp ? k : double(k) * warps;
        std::printf("red_chain %s g%d b%d %.4g us  %.3f ns per atomic per address\n", per_warp ? "own" : "shared", grid,
                    block, t * 1e6, t * 1e9 / per_addr);
      }

  const int kb = 4096;
  for (int block : {32, 64, 128, 256, 512, 1024})
    for (int per_sm : {1, 2048 / block >= 2 ? 2 : 1, std::min(32, 2048 / block)}) {
      int grid = 132 * per_sm;
      double t = time_graph([&](cudaStream_t st) { bar_loop<<<grid, block, 0, st>>>(out, kb); }, s, 50);
      std::printf("bar_loop b%d blocks_per_sm %d %.4g us  %.2f ns per barrier\n", block, per_sm, t * 1e6, t * 1e9 / kb);
    }
  return 0;
}
