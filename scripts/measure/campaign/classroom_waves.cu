// Where a classroom kernel's time goes block by block (issue 16's remaining misses: vector_add of
// 2^20 elements at 1024 threads, matmul_naive at n = 512): the kernels of classroom.cu, with
// thread 0 of each block noting its SM and the global timer and SM clock at its start and, after
// a __syncthreads, at its end. Each case runs 5 times back to back (the L2 warm, as classroom.cu's
// graph replays find it) and the last run is summarised: blocks per SM, the spread of the SMs'
// last block ends, block durations in SM clocks, when the last block started.
//
// Build and run (on the device machine):
//   nvcc -O3 -arch=sm_90 -o classroom_waves scripts/measure/campaign/classroom_waves.cu && ./classroom_waves
// Output: one line per case (figures named on the line).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"
#include "event_time.h"

struct Note {
  unsigned long long t0, t1, c0, c1;
  unsigned sm;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__device__ __forceinline__ void note_start(Note* notes) {
  if (threadIdx.x == 0) {
    notes[blockIdx.x].t0 = global_ns();
    notes[blockIdx.x].c0 = clock64();
    notes[blockIdx.x].sm = sm_id();
  }
}
__device__ __forceinline__ void note_end(Note* notes) {
  __syncthreads();
  if (threadIdx.x == 0) {
    notes[blockIdx.x].c1 = clock64();
    notes[blockIdx.x].t1 = global_ns();
  }
}

// classroom.cu's vector_add; out-of-range threads skip the work but reach the barrier
__global__ void vector_add(float* a, float* b, float* c, unsigned n, Note* notes) {
  note_start(notes);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  note_end(notes);
}

// classroom.cu's matmul_naive (loop not unrolled)
__global__ void matmul_naive(unsigned n, float* a, float* b, float* c, Note* notes) {
  note_start(notes);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n * n) {
    unsigned row = gid / n, col = gid % n, ia = row * n, ib = col;
    float acc = 0.0f;
    unsigned k = 0;
#pragma unroll 1
    do {
      acc = fmaf(a[ia], b[ib], acc);
      ia += 1, ib += n, k += 1;
    } while (k < n);
    c[gid] = acc;
  }
  note_end(notes);
}

void summarise(const char* name, unsigned grid, unsigned block, const std::vector<Note>& notes, float event_us) {
  unsigned long long first = ~0ull, last = 0, last_start = 0;
  std::vector<int> per_sm(1024, 0);
  std::vector<unsigned long long> sm_end(1024, 0);
  std::vector<double> clocks;
  for (const Note& x : notes) {
    first = std::min(first, x.t0), last = std::max(last, x.t1), last_start = std::max(last_start, x.t0);
    per_sm[x.sm]++;
    sm_end[x.sm] = std::max(sm_end[x.sm], x.t1);
    clocks.push_back(double(x.c1 - x.c0));
  }
  std::vector<int> counts;
  std::vector<double> ends;
  for (int s = 0; s < 1024; ++s)
    if (per_sm[s] > 0) counts.push_back(per_sm[s]), ends.push_back(double(sm_end[s] - first) * 1e-3);
  std::sort(counts.begin(), counts.end());
  std::sort(ends.begin(), ends.end());
  std::sort(clocks.begin(), clocks.end());
  auto at = [](const std::vector<double>& v, double q) { return v[std::size_t(q * double(v.size() - 1))]; };
  std::printf("%s g%u b%u event %.3f us | span %.3f us, last block starts %.3f us | SMs %zu, blocks/SM %d..%d | "
              "SM last end min/median/max %.3f/%.3f/%.3f us | block clocks p10/median/p90/max %.0f/%.0f/%.0f/%.0f\n",
              name, grid, block, event_us, double(last - first) * 1e-3, double(last_start - first) * 1e-3, counts.size(),
              counts.front(), counts.back(), ends.front(), at(ends, 0.5), ends.back(), at(clocks, 0.1), at(clocks, 0.5),
              at(clocks, 0.9), clocks.back());
}

template <class Launch>
void run_case(const char* name, unsigned grid, unsigned block, Note* d_notes, Launch launch) {
  const float ms = event_ms(4, launch);
  std::vector<Note> notes(grid);
  CK(cudaMemcpy(notes.data(), d_notes, grid * sizeof(Note), cudaMemcpyDeviceToHost));
  summarise(name, grid, block, notes, ms * 1e3f);
}

int main() {
  const unsigned max_n = 1u << 24;
  float *a, *b, *c;
  Note* notes;
  CK(cudaMalloc(&a, max_n * sizeof(float)));
  CK(cudaMalloc(&b, max_n * sizeof(float)));
  CK(cudaMalloc(&c, max_n * sizeof(float)));
  CK(cudaMalloc(&notes, (max_n / 32) * sizeof(Note)));
  CK(cudaMemset(a, 0, max_n * sizeof(float)));
  CK(cudaMemset(b, 0, max_n * sizeof(float)));
  for (unsigned n : {1u << 20, 1u << 24})
    for (unsigned blk : {128u, 256u, 512u, 1024u}) {
      unsigned grid = n / blk;
      run_case("vector_add", grid, blk, notes, [&] { vector_add<<<grid, blk>>>(a, b, c, n, notes); });
    }
  for (unsigned n : {256u, 512u, 1024u}) {
    unsigned grid = n * n / 256;
    run_case(n == 256 ? "matmul_naive n256" : n == 512 ? "matmul_naive n512" : "matmul_naive n1024", grid, 256, notes,
             [&] { matmul_naive<<<grid, 256>>>(n, a, b, c, notes); });
  }
  return 0;
}
