// Where a classroom matmul's time goes inside its loops (issue 16: the latency-bound matmuls):
// classroom.cu's matmul_tiled and matmul_naive with lane 0 of every warp reading the SM clock
// between the phases of each trip and adding the differences up.
// - matmul_tiled<T>, per tile: [load] from the top of the tile to the two shared stores issued (they
//   wait for both global loads), [bar1] the first __syncthreads, [inner] the T-step inner loop,
//   [bar2] the second __syncthreads.
// - matmul_naive, per iteration: [iter] one trip of the loop (two global loads, the FMA waiting on
//   them, the bookkeeping).
// A latency probe (latency_probe, below) gives the loops' parts alone, and inner_only the tiled
// inner loop alone at 1 to 64 warps per SM.
// Each case runs 5 times back to back (the L2 warm, as classroom.cu's graph replays find it); the
// last run is summarised: mean cycles per trip of each phase over all warps, and the event time of
// the launch. The clock reads cost a few cycles each and keep the compiler from moving loads or
// stores across them ("memory" clobber), so the phases add up to a little more than the plain
// kernel's trip.
//
// Build and run (on the device machine):
//   nvcc -O3 -arch=sm_90 -o classroom_phases scripts/measure/campaign/classroom_phases.cu && ./classroom_phases
// Output: one line per case (figures named on the line).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "event_time.h"

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// classroom.cu's inner loop of matmul_tiled: acc + ta[ty][0..T) · tb[0..T)[tx], not unrolled
template <unsigned T>
__device__ __forceinline__ float tile_dot(const float* ra, const float* rb, float acc) {
  unsigned k = 0;
#pragma unroll 1
  do {
    acc = fmaf(*ra, *rb, acc);
    ra += 1, rb += T, k += 1;
  } while (k < T);
  return acc;
}

// sums[warp * 4 + phase]: cycles, lane 0 of each warp
template <unsigned T>
__global__ void matmul_tiled(unsigned n, float* a, float* b, float* c, long long* sums) {
  __shared__ float ta[T * T];
  __shared__ float tb[T * T];
  unsigned tiles = n / T;
  unsigned by = blockIdx.x / tiles, bx = blockIdx.x % tiles;
  unsigned tx = threadIdx.x % T, ty = threadIdx.x / T;
  unsigned row = by * T + ty, col = bx * T + tx;
  unsigned sidx = threadIdx.x;
  float acc = 0.0f;
  long long ph[4] = {0, 0, 0, 0};
  unsigned t = 0;
#pragma unroll 1
  do {
    long long t0 = stamp();
    float x = a[row * n + t * T + tx];
    float y = b[(t * T + ty) * n + col];
    ta[sidx] = x;
    tb[sidx] = y;
    long long t1 = stamp();
    __syncthreads();
    long long t2 = stamp();
    acc = tile_dot<T>(&ta[ty * T], &tb[tx], acc);
    long long t3 = stamp();
    __syncthreads();
    long long t4 = stamp();
    ph[0] += t1 - t0, ph[1] += t2 - t1, ph[2] += t3 - t2, ph[3] += t4 - t3;
    t += 1;
  } while (t < tiles);
  c[row * n + col] = acc;
  if (threadIdx.x % 32 == 0) {
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    for (int i = 0; i < 4; ++i) sums[w * 4 + i] = ph[i];
  }
}

__global__ void matmul_naive(unsigned n, float* a, float* b, float* c, long long* sums) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned row = gid / n, col = gid % n, ia = row * n, ib = col;
  float acc = 0.0f;
  long long t0 = stamp();
  unsigned k = 0;
#pragma unroll 1
  do {
    acc = fmaf(a[ia], b[ib], acc);
    ia += 1, ib += n, k += 1;
  } while (k < n);
  long long t1 = stamp();
  c[gid] = acc;
  if (threadIdx.x % 32 == 0) {
    unsigned w = gid / 32;
    sums[w * 4] = t1 - t0;
    sums[w * 4 + 1] = sums[w * 4 + 2] = sums[w * 4 + 3] = 0;
  }
}


// One warp alone on the GPU: [lds] cycles per hop of a chase through shared memory (each load's
// address is the previous load's value: load-to-use latency of LDS), [loop] cycles per trip of an
// otherwise empty counted loop (add, compare, branch: the loop's own latency chain).
__global__ void latency_probe(int hops, unsigned* sink, long long* out) {
  __shared__ unsigned s[1024];
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = ((i + 33) % 1024) * 4;  // byte offsets
  __syncthreads();
  unsigned p = threadIdx.x * 4;
  long long t0 = stamp();
#pragma unroll 1
  for (int i = 0; i < hops; i += 8) {
#pragma unroll
    for (int j = 0; j < 8; ++j) p = *reinterpret_cast<unsigned*>(reinterpret_cast<char*>(s) + p);
  }
  long long t1 = stamp();
  unsigned k = 0;
#pragma unroll 1
  do {
    asm volatile("" : "+r"(k));
    k += 1;
  } while (k < unsigned(hops));
  long long t2 = stamp();
  sink[threadIdx.x] = p + k;
  if (threadIdx.x == 0) out[0] = t1 - t0, out[1] = t2 - t1;
}

// matmul_tiled<T>'s inner loop alone (no global loads, no barriers in the loop): `tiles` times the
// T-step loop over shared tiles, every block resident at once; the event time over the trips gives
// cycles per trip of one warp at that occupancy.
template <unsigned T>
__global__ void inner_only(unsigned tiles, float* out) {
  __shared__ float ta[T * T];
  __shared__ float tb[T * T];
  ta[threadIdx.x] = float(threadIdx.x);
  tb[threadIdx.x] = 1.0f;
  __syncthreads();
  unsigned tx = threadIdx.x % T, ty = threadIdx.x / T;
  float acc = 0.0f;
  unsigned t = 0;
#pragma unroll 1
  do {
    acc = tile_dot<T>(&ta[ty * T], &tb[tx], acc);
    t += 1;
  } while (t < tiles);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <unsigned T>
void inner_case(unsigned blocks_per_sm, float* out) {
  const unsigned tiles = 1024, grid = 132 * blocks_per_sm;
  const float ms = event_ms(2, [&] { inner_only<T><<<grid, T * T>>>(tiles, out); });
  std::printf("inner_only T%u b%u blocks_per_sm %u event %.3f us | %.1f cycles per trip at 1980 MHz\n", T, T * T,
              blocks_per_sm, ms * 1e3f, ms * 1e-3 * 1.98e9 / (tiles * T));
}

template <class Launch>
void run_case(const char* name, bool naive, unsigned n, unsigned grid, unsigned block, unsigned trips,
              long long* d_sums, Launch launch) {
  const float ms = event_ms(4, launch);
  const unsigned warps = grid * block / 32;
  std::vector<long long> sums(std::size_t(warps) * 4);
  CK(cudaMemcpy(sums.data(), d_sums, sums.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  double mean[4] = {0, 0, 0, 0};
  for (unsigned w = 0; w < warps; ++w)
    for (int i = 0; i < 4; ++i) mean[i] += double(sums[std::size_t(w) * 4 + i]) / warps / trips;
  std::printf("%s n%u g%u b%u event %.3f us | cycles per trip, mean over warps: ", name, n, grid, block, ms * 1e3f);
  if (naive)
    std::printf("iter %.1f\n", mean[0]);
  else
    std::printf("load %.1f bar1 %.1f inner %.1f bar2 %.1f (sum %.1f)\n", mean[0], mean[1], mean[2], mean[3],
                mean[0] + mean[1] + mean[2] + mean[3]);
}

int main() {
  const unsigned max_n = 2048u * 2048u;
  float *a, *b, *c;
  long long* sums;
  CK(cudaMalloc(&a, max_n * sizeof(float)));
  CK(cudaMalloc(&b, max_n * sizeof(float)));
  CK(cudaMalloc(&c, max_n * sizeof(float)));
  CK(cudaMalloc(&sums, (max_n / 32) * 4 * sizeof(long long)));
  CK(cudaMemset(a, 0, max_n * sizeof(float)));
  CK(cudaMemset(b, 0, max_n * sizeof(float)));
  {
    const int hops = 4096;
    latency_probe<<<1, 32>>>(hops, reinterpret_cast<unsigned*>(c), sums);
    latency_probe<<<1, 32>>>(hops, reinterpret_cast<unsigned*>(c), sums);
    CK(cudaDeviceSynchronize());
    long long r[2];
    CK(cudaMemcpy(r, sums, sizeof r, cudaMemcpyDeviceToHost));
    std::printf("latency_probe one warp | lds %.1f cycles per hop | loop %.1f cycles per trip\n", double(r[0]) / hops,
                double(r[1]) / hops);
  }
  for (unsigned k : {1u, 4u, 16u, 32u}) inner_case<8>(k, c);
  for (unsigned k : {1u, 2u, 4u, 8u}) inner_case<16>(k, c);
  for (unsigned n : {64u, 128u, 256u, 512u, 1024u}) {
    unsigned g16 = (n / 16) * (n / 16), g8 = (n / 8) * (n / 8), g32 = (n / 32) * (n / 32);
    run_case("matmul_tiled16", false, n, g16, 256, n / 16, sums, [&] { matmul_tiled<16><<<g16, 256>>>(n, a, b, c, sums); });
    run_case("matmul_tiled8", false, n, g8, 64, n / 8, sums, [&] { matmul_tiled<8><<<g8, 64>>>(n, a, b, c, sums); });
    run_case("matmul_tiled32", false, n, g32, 1024, n / 32, sums, [&] { matmul_tiled<32><<<g32, 1024>>>(n, a, b, c, sums); });
  }
  for (unsigned n : {64u, 128u, 256u, 512u, 1024u}) {
    unsigned grid = n * n / 256;
    run_case("matmul_naive", true, n, grid, 256, n, sums, [&] { matmul_naive<<<grid, 256>>>(n, a, b, c, sums); });
  }
  return 0;
}
