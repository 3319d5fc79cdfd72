// A bf16 matrix product on the tensor cores the Ampere way: cp.async copies global tiles into
// shared memory (two stages, one commit group per stage), ldmatrix loads the fragments and
// mma.sync.m16n8k16 multiplies them, fp32 accumulation. C = A * B, A M x K and B K x N row-major
// bf16, C M x N row-major f32; M, N multiples of 128 and K of 32.
//
// Block 128 x 128 (256 threads, 8 warps as 2 x 4, a 64 x 32 tile per warp), K steps of 32.
// Shared rows are padded by 8 bf16 (16 bytes) so that ldmatrix's eight row reads hit distinct
// banks. The small kernel at the end (call_local_demo) is here for its PTX: a __noinline__ device
// function (.func, call with .param) and an array indexed at run time (.local, __local_depot).
//
//   nvcc -O3 -arch=sm_90 mma_matmul.cu -o mma_matmul && ./mma_matmul
//   nvcc -ptx -arch=sm_80 -O3 mma_matmul.cu -o ptx/mma_matmul_sm80.ptx   (sm_90 the same)
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int BM = 128, BN = 128, BK = 32, STAGES = 2;
constexpr int AS = BK + 8;   // A row stride in shared memory (bf16)
constexpr int BS = BN + 8;   // B row stride

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_u32(smem)), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ __forceinline__ void ldmatrix_x4(uint32_t r[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t r[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(p)));
}
__device__ __forceinline__ void mma_bf16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void __launch_bounds__(256) mma_matmul(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C,
                                                  int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[STAGES][BM][AS];
  __shared__ __align__(16) __nv_bfloat16 Bs[STAGES][BK][BS];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wm = warp / 4, wn = warp % 4;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  float acc[4][4][4] = {};
  auto load = [&](int stage, int k0) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int c = tid + i * 256;  // 512 16-byte chunks per operand tile
      const int ar = c / 4, ac = (c % 4) * 8;
      cp_async16(&As[stage][ar][ac], A + (size_t)(bm + ar) * K + k0 + ac);
      const int br = c / 16, bc = (c % 16) * 8;
      cp_async16(&Bs[stage][br][bc], B + (size_t)(k0 + br) * N + bn + bc);
    }
    cp_async_commit();
  };
  const int tiles = K / BK;
  load(0, 0);
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      load((t + 1) % STAGES, (t + 1) * BK);
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
    const int s = t % STAGES;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a[4][4], b[4][2];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi) ldmatrix_x4(a[mi], &As[s][wm * 64 + mi * 16 + (lane % 16)][kk + (lane / 16) * 8]);
#pragma unroll
      for (int nj = 0; nj < 2; ++nj) {
        uint32_t r[4];
        ldmatrix_x4_trans(r, &Bs[s][kk + (lane % 16)][wn * 32 + nj * 16 + (lane / 16) * 8]);
        b[2 * nj][0] = r[0];
        b[2 * nj][1] = r[1];
        b[2 * nj + 1][0] = r[2];
        b[2 * nj + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) mma_bf16(acc[mi][ni], a[mi], b[ni]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      const int row = bm + wm * 64 + mi * 16 + lane / 4, col = bn + wn * 32 + ni * 8 + 2 * (lane % 4);
      *reinterpret_cast<float2*>(&C[(size_t)row * N + col]) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
      *reinterpret_cast<float2*>(&C[(size_t)(row + 8) * N + col]) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
    }
}

// For its PTX: a call to a .func with .param arguments and return, and a .local array.
__device__ __noinline__ float weighted(const float* w, int n, float x) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s = s * x + w[i];
  return s;
}
__global__ void call_local_demo(const float* in, float* out, int n) {
  float w[16];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 16; ++i) w[i] = in[(t + i) % n];
  const int j = t % 16;  // a run-time index: w lives in local memory
  w[j] += 1.0f;
  if (t < n) out[t] = weighted(w, 16, 0.5f);
}

int main() {
  const int n = 1024;
  std::vector<__nv_bfloat16> ha((size_t)n * n), hb((size_t)n * n);
  for (size_t i = 0; i < ha.size(); ++i) {
    ha[i] = __float2bfloat16((float)((i * 37) % 17) / 17.f - 0.5f);
    hb[i] = __float2bfloat16((float)((i * 11) % 13) / 13.f - 0.5f);
  }
  __nv_bfloat16 *a, *b;
  float* c;
  cudaMalloc(&a, ha.size() * 2);
  cudaMalloc(&b, hb.size() * 2);
  cudaMalloc(&c, (size_t)n * n * 4);
  cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  mma_matmul<<<dim3(n / BN, n / BM), 256>>>(a, b, c, n, n, n);
  cudaEventRecord(e0);
  for (int i = 0; i < 100; ++i) mma_matmul<<<dim3(n / BN, n / BM), 256>>>(a, b, c, n, n, n);
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  printf("mma_matmul %d^3: %.2f us, %.1f TFLOP/s\n", n, ms * 10, 2.0 * n * n * n / (ms * 1e-5) * 1e-12);
  return 0;
}
