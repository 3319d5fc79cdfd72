// Host-link (PCIe) copy rates of the GPU it runs on, for hwsim's host_link.* chip keys
// (docs/serving.md, swap preemption). Pinned host memory, cudaMemcpyAsync on one stream, timed
// with CUDA events; each figure is the median of 11 runs after 3 warm-ups.
//  1. one large copy each way (64 MiB .. 1 GiB): the link's sustained rate;
//  2. vLLM's swap pattern: many copies of one KV block of one layer's K or V each (vLLM's
//     swap_blocks issues one cudaMemcpyAsync per block per layer and per K/V), 4 KiB .. 256 KiB,
//     N copies from/to distinct offsets: the per-copy cost beyond the bytes.
// Build and run: nvcc -O2 -o measure_host_link measure_host_link.cu && ./measure_host_link
// Output: one JSON object per line.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e = (x);                                                                \
    if (e != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median seconds of `issue` (copies enqueued on `s`) over 11 runs after 3 warm-ups; < 0 on an error.
template <class Issue>
static double time_copies(cudaStream_t s, cudaEvent_t a, cudaEvent_t b, Issue issue) {
  std::vector<double> t;
  for (int r = 0; r < 14; ++r) {
    if (cudaEventRecord(a, s) != cudaSuccess || !issue() || cudaEventRecord(b, s) != cudaSuccess ||
        cudaEventSynchronize(b) != cudaSuccess)
      return -1;
    float ms = 0;
    if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess) return -1;
    if (r >= 3) t.push_back(ms * 1e-3);
  }
  return median(t);
}

static void print_copy(int dir, size_t bytes, size_t copies, double sec) {
  std::printf("{\"kind\": \"copy\", \"direction\": \"%s\", \"bytes\": %zu, \"copies\": %zu, \"seconds\": %.9g, "
              "\"bytes_per_s\": %.6g}\n", dir == 0 ? "h2d" : "d2h", bytes, copies, sec, double(bytes) / sec);
}

int main() {
  const size_t big = size_t(1) << 30;
  char *host = nullptr, *dev = nullptr;
  CHECK(cudaMallocHost(&host, big));
  CHECK(cudaMalloc(&dev, big));
  for (size_t i = 0; i < big; i += 4096) host[i] = char(i);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"kind\": \"device\", \"name\": \"%s\", \"pci_bus\": %d, \"sms\": %d}\n", prop.name, prop.pciBusID,
              prop.multiProcessorCount);
  auto copy = [&](int dir, size_t off, size_t bytes) {
    return (dir == 0 ? cudaMemcpyAsync(dev + off, host + off, bytes, cudaMemcpyHostToDevice, s)
                     : cudaMemcpyAsync(host + off, dev + off, bytes, cudaMemcpyDeviceToHost, s)) == cudaSuccess;
  };
  // 1. large copies
  for (size_t bytes : {size_t(64) << 20, size_t(256) << 20, size_t(1) << 30})
    for (int dir = 0; dir < 2; ++dir) {
      double sec = time_copies(s, a, b, [&] { return copy(dir, 0, bytes); });
      if (sec < 0) return 1;
      print_copy(dir, bytes, 1, sec);
    }
  // 2. many block-sized copies (vLLM swap_blocks), every other slot: no two copies adjacent
  for (size_t chunk : {size_t(4) << 10, size_t(16) << 10, size_t(32) << 10, size_t(64) << 10, size_t(256) << 10}) {
    const size_t n = std::min<size_t>(4096, big / chunk / 2);
    for (int dir = 0; dir < 2; ++dir) {
      double sec = time_copies(s, a, b, [&] {
        for (size_t i = 0; i < n; ++i)
          if (!copy(dir, 2 * i * chunk, chunk)) return false;
        return true;
      });
      if (sec < 0) return 1;
      print_copy(dir, chunk * n, n, sec);
    }
  }
  return 0;
}
