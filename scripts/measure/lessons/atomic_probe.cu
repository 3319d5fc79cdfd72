// Same-address vs same-line global atomics on one GPU (the histogram lesson's mechanism):
// how long the L2 takes per warp request when a warp's 32 lanes add into one address, into 32
// (or 4, 8) distinct addresses of one 128-byte line, into 32 lines, or from lane 0 alone.
// One block of 1024 threads (32 warps) and 132 blocks; every warp adds `iters` times; the lane's
// address comes from memory (idx[lane]) so that nvcc cannot aggregate it at compile time. Timed
// with CUDA events over 5 launches after 2 warm-ups; prints one JSON line per case. Then the
// histogram's pattern: random words among 32 (one line) to 2^20 (4 MiB), fresh per request.
// nvcc -O3 -arch=sm_90 atomic_probe.cu -o atomic_probe && ./atomic_probe
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void probe(const int* idx, unsigned* counters, int iters, int lane_limit) {
  const int lane = threadIdx.x & 31;
  if (lane >= lane_limit) return;
  unsigned* p = counters + idx[lane];
  for (int i = 0; i < iters; ++i) atomicAdd(p, 1u);
}

// The histogram's pattern: every request's lanes add into random words of `words` consecutive
// words (a fresh random word per lane and iteration, from a hash, no memory read in the loop).
__global__ void probe_random(unsigned* counters, int iters, unsigned words) {
  unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 12345u;
  for (int i = 0; i < iters; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    atomicAdd(counters + (x % words), 1u);
  }
}

int main() {
  int* idx;
  unsigned* counters;
  cudaMalloc(&idx, 32 * sizeof(int));
  cudaMalloc(&counters, 32 * 64 * sizeof(unsigned));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  struct Case { const char* name; int distinct_per_line; int lines; int lanes; };
  const Case cases[] = {{"same_address_32_lanes", 1, 1, 32}, {"lane0_only", 1, 1, 1}, {"4_addresses_one_line", 4, 1, 32},
                        {"8_addresses_one_line", 8, 1, 32}, {"32_addresses_one_line", 32, 1, 32}, {"32_lines_one_address_each", 1, 32, 32},
                        {"8_lines_4_addresses_each", 4, 8, 32}};
  const int iters = 256;
  for (const Case& c : cases) {
    std::vector<int> h(32);
    for (int l = 0; l < 32; ++l) {
      const int group = l % (c.distinct_per_line * c.lines);
      const int line = group / c.distinct_per_line, word = group % c.distinct_per_line;
      h[l] = line * 32 + word;  // 32 words = 128 bytes per line
    }
    cudaMemcpy(idx, h.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    for (int blocks : {1, 132}) {
      for (int w = 0; w < 2; ++w) probe<<<blocks, 1024>>>(idx, counters, iters, c.lanes);
      cudaEventRecord(a);
      for (int r = 0; r < 5; ++r) probe<<<blocks, 1024>>>(idx, counters, iters, c.lanes);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      const double s = ms * 1e-3 / 5;
      const double requests = double(blocks) * 32 * iters, ops = requests * c.lanes;
      printf("{\"kind\": \"atomic_probe\", \"case\": \"%s\", \"blocks\": %d, \"threads\": 1024, \"iters\": %d, \"lanes\": %d, "
             "\"seconds\": %.6e, \"ns_per_request\": %.4f, \"ns_per_lane_op\": %.4f}\n",
             c.name, blocks, iters, c.lanes, s, s / requests * 1e9, s / ops * 1e9);
    }
  }
  unsigned* big;
  cudaMalloc(&big, (1u << 20) * sizeof(unsigned));
  for (unsigned words : {32u, 256u, 1024u, 65536u, 1048576u}) {
    for (int blocks : {132, 1056}) {
      for (int w = 0; w < 2; ++w) probe_random<<<blocks, 1024>>>(big, iters, words);
      cudaEventRecord(a);
      for (int r = 0; r < 5; ++r) probe_random<<<blocks, 1024>>>(big, iters, words);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      const double s = ms * 1e-3 / 5;
      const double requests = double(blocks) * 32 * iters;
      printf("{\"kind\": \"atomic_probe\", \"case\": \"random_words_%u\", \"blocks\": %d, \"threads\": 1024, \"iters\": %d, \"lanes\": 32, "
             "\"seconds\": %.6e, \"ns_per_request\": %.4f, \"ns_per_lane_op\": %.4f}\n",
             words, blocks, iters, s, s / requests * 1e9, s / requests / 32 * 1e9);
    }
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
