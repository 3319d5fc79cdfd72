// Two probes on the lent H200 for the tensor-core matmul lessons' predictions (one JSON line each).
// (1) mma.sync throughput: every warp issues m16n8k16 bf16 MMAs on 8 independent accumulators, 4..16
// warps per SM, FLOP/s over the median of 20 launches: the rate warp-level MMAs reach on Hopper.
// (2) L2 read bandwidth: every SM
// streams an L2-resident buffer (16 MB, read once first so it is in L2) with 16-byte loads that
// bypass L1 (ld.global.cg, the path cp.async.cg takes), 8 loads in flight per thread; bytes read
// over the median kernel time of 20 launches (CUDA events). Also times cp.async.cg into shared
// memory (wait_group 0 every 8 copies). One JSON line per case on stdout.
//   nvcc -O3 -arch=sm_90 matmul_probes.cu -o matmul_probes && ./matmul_probes
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void read_cg(const int4* __restrict__ in, int n, int reps, int* out) {
  int4 acc = make_int4(0, 0, 0, 0);
  const int stride = gridDim.x * blockDim.x;
  for (int r = 0; r < reps; ++r)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 8 * stride) {
      int4 v[8];
#pragma unroll
      for (int u = 0; u < 8; ++u) v[u] = i + u * stride < n ? __ldcg(in + i + u * stride) : make_int4(0, 0, 0, 0);
#pragma unroll
      for (int u = 0; u < 8; ++u) acc.x ^= v[u].x, acc.y ^= v[u].y, acc.z ^= v[u].z, acc.w ^= v[u].w;
    }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678) out[0] = 1;
}

__global__ void read_cp_async(const int4* __restrict__ in, int n, int reps, int* out) {
  __shared__ int4 buf[8][256];
  const int stride = gridDim.x * blockDim.x;
  for (int r = 0; r < reps; ++r)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 8 * stride) {
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        const int j = min(i + u * stride, n - 1);
        unsigned s = (unsigned)__cvta_generic_to_shared(&buf[u][threadIdx.x]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(in + j));
      }
      asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::);
    }
  if (buf[0][threadIdx.x].x == 0x12345678) out[0] = 1;
}

__global__ void mma_sync_rate(int iters, float* out) {
  unsigned a0 = threadIdx.x * 0x00010001u, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, b0 = a0 ^ 5, b1 = a0 ^ 7;
  float c[8][4] = {};
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float s = 0;
  for (int j = 0; j < 8; ++j) s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
  if (s == 1.2345f) out[0] = s;
}

void time_mma(int warps_per_sm, int sms) {
  const int iters = 4096;
  float* out;
  cudaMalloc(&out, 4);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  mma_sync_rate<<<sms, 32 * warps_per_sm>>>(iters, out);
  std::vector<float> ts;
  for (int k = 0; k < 20; ++k) {
    cudaEventRecord(a);
    mma_sync_rate<<<sms, 32 * warps_per_sm>>>(iters, out);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  const double flops = 2.0 * 16 * 8 * 16 * 8 * double(iters) * warps_per_sm * sms, s = ts[ts.size() / 2] * 1e-3;
  printf("{\"kind\":\"mma_sync_rate\",\"shape\":\"m16n8k16 bf16 f32\",\"warps_per_sm\":%d,\"sms\":%d,\"seconds\":%.6e,"
         "\"tflops\":%.1f,\"error\":\"%s\"}\n",
         warps_per_sm, sms, s, flops / s * 1e-12, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}

template <class K>
void time_case(const char* name, K kernel, const int4* in, int n, int blocks, int* out) {
  const int reps = 20;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  kernel<<<blocks, 256>>>(in, n, 1, out);  // warm the L2
  std::vector<float> ts;
  for (int k = 0; k < 20; ++k) {
    cudaEventRecord(a);
    kernel<<<blocks, 256>>>(in, n, reps, out);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  const double bytes = double(n) * 16 * reps, s = ts[ts.size() / 2] * 1e-3;
  printf("{\"kind\":\"l2_read_bw\",\"case\":\"%s\",\"bytes_per_launch\":%.0f,\"blocks\":%d,\"threads\":256,\"seconds\":%.6e,"
         "\"tbps\":%.3f,\"error\":\"%s\"}\n",
         name, bytes, blocks, s, bytes / s * 1e-12, cudaGetErrorString(cudaGetLastError()));
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  const int n = (16 << 20) / 16;  // 16 MB of int4
  int4* in;
  int* out;
  cudaMalloc(&in, size_t(n) * 16);
  cudaMalloc(&out, 4);
  cudaMemset(in, 1, size_t(n) * 16);
  for (int w : {4, 8, 16}) time_mma(w, p.multiProcessorCount);
  for (int per_sm : {4, 8})
    time_case(per_sm == 4 ? "ld.global.cg 4 blocks/SM" : "ld.global.cg 8 blocks/SM", read_cg, in, n,
              p.multiProcessorCount * per_sm, out);
  time_case("cp.async.cg 8 blocks/SM", read_cp_async, in, n, p.multiProcessorCount * 8, out);
  return 0;
}
