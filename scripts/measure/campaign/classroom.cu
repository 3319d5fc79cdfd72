// CUDA twins of hwsim's teaching kernels (workloads/kernels/*.hwk), for timing them on a real GPU.
//
// Each kernel is a line-for-line transcription of its .hwk program: the same parameters in the
// same order, the same thread mapping, the same loop structure (do-while where the .hwk tests at
// the bottom, while where it tests at the top), the same data types (u32 indices, f32 data), no
// loop unrolled (#pragma unroll 1 on every loop), plain global loads (no __restrict__, no __ldg),
// and the SFU instructions the .hwk names (ex2.approx, rcp.approx) through inline PTX.
//
// Usage:
//   classroom CASEFILE DEADLINE_S [--parse-only]   one JSON line per case on stdout
//   classroom --device                              the device as one JSON line
//   classroom --spin SECONDS                        FMA spin to raise the clocks
// CASEFILE: one case per line, "id kernel grid block n cols check" (written by native.py).
// Timing: 3 warm-up launches, one event-timed launch to size the graph, K >= 20 launches captured
// in a CUDA graph (K ~ 20 ms of work, at most 2000), one untimed replay, then 7 replays timed with
// CUDA events: seconds = median over replays of (replay time / K), launch gaps included.
// A case whose check flag is set is first run once and compared with a CPU reference.
// Exit code 2 after a CUDA error that poisons the context (the driver restarts on the rest).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#define FULL_MASK 0xffffffffu

struct CudaError : std::runtime_error {
  bool sticky;
  CudaError(const std::string& m, bool s) : std::runtime_error(m), sticky(s) {}
};

static void check(cudaError_t e, const char* what, int line) {
  if (e == cudaSuccess) return;
  // errors that leave the context unusable
  bool sticky = e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorIllegalInstruction ||
                e == cudaErrorMisalignedAddress || e == cudaErrorHardwareStackError || e == cudaErrorAssert ||
                e == cudaErrorLaunchTimeout || e == cudaErrorInvalidPc || e == cudaErrorUnknown;
  char buf[512];
  snprintf(buf, sizeof buf, "%s (%s) at line %d: %s", cudaGetErrorName(e), cudaGetErrorString(e), line, what);
  throw CudaError(buf, sticky);
}
#define CK(x) check((x), #x, __LINE__)

// ============================================================================ the kernels
// matmul_naive.hwk: C[n x n] = A . B, one thread per element of C, grid x block >= n^2.
__global__ void matmul_naive(unsigned n, float* a, float* b, float* c) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;  // mad.u32 gid, %ctaid, %ntid, %tid
  unsigned nn = n * n;
  if (gid >= nn) return;
  unsigned row = gid / n;
  unsigned col = gid % n;
  unsigned ia = row * n;  // a[row][0]
  unsigned ib = col;      // b[0][col]
  float acc = 0.0f;
  unsigned k = 0;
#pragma unroll 1
  do {  // LOOP: ... @p bra LOOP
    float x = a[ia];
    float y = b[ib];
    acc = fmaf(x, y, acc);
    ia += 1;
    ib += n;
    k += 1;
  } while (k < n);
  c[gid] = acc;
}

// matmul_tiled.hwk: TxT tiles staged in shared memory (T = 16 in the .hwk; 8 and 32 for the tile
// lesson); block = T*T threads, grid = (n/T)^2.
template <unsigned T>
__global__ void matmul_tiled(unsigned n, float* a, float* b, float* c) {
  __shared__ float ta[T * T];
  __shared__ float tb[T * T];
  unsigned tiles = n / T;
  unsigned by = blockIdx.x / tiles;
  unsigned bx = blockIdx.x % tiles;
  unsigned tx = threadIdx.x % T;
  unsigned ty = threadIdx.x / T;
  unsigned row = by * T + ty;
  unsigned col = bx * T + tx;
  unsigned sidx = threadIdx.x;  // this thread's slot in a tile (shl.u32 sidx, %tid, 2: a byte offset)
  float acc = 0.0f;
  unsigned t = 0;
#pragma unroll 1
  do {  // TILE:
    // ta[ty][tx] = a[row][t*16 + tx];  tb[ty][tx] = b[t*16 + ty][col]
    unsigned idx = t * T + tx;
    idx = row * n + idx;
    float x = a[idx];
    ta[sidx] = x;
    idx = t * T + ty;
    idx = idx * n + col;
    float y = b[idx];
    tb[sidx] = y;
    __syncthreads();
    const float* ra = &ta[ty * T];  // &ta[ty][0]
    const float* rb = &tb[tx];       // &tb[0][tx]
    unsigned k = 0;
#pragma unroll 1
    do {  // INNER:
      x = *ra;
      y = *rb;
      acc = fmaf(x, y, acc);
      ra += 1;
      rb += T;
      k += 1;
    } while (k < T);
    __syncthreads();
    t += 1;
  } while (t < tiles);
  unsigned idx = row * n + col;
  c[idx] = acc;
}

// vector_add.hwk: c[i] = a[i] + b[i] for i < n, one thread per element.
__global__ void vector_add(float* a, float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float y = b[i];
  x = x + y;
  c[i] = x;
}

__device__ __forceinline__ float ex2_approx(float v) {
  float e;
  asm("ex2.approx.f32 %0, %1;" : "=f"(e) : "f"(v));
  return e;
}
__device__ __forceinline__ float rcp_approx(float v) {
  float r;
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}

// softmax.hwk: one warp (block of 32) per row of `cols`; lanes stride over the row, shuffles
// combine max and sum; exp(v) = ex2(v * log2 e).
__global__ void softmax(unsigned cols, float* x, float* y) {
  unsigned lane = threadIdx.x & 31;  // %laneid
  unsigned base = blockIdx.x * cols;
  float m = -3.0e38f;
  unsigned j = lane;
#pragma unroll 1
  while (j < cols) {  // MAX:
    unsigned idx = base + j;
    float v = x[idx];
    m = fmaxf(m, v);
    j += 32;
  }
  float o;
  o = __shfl_xor_sync(FULL_MASK, m, 16); m = fmaxf(m, o);
  o = __shfl_xor_sync(FULL_MASK, m, 8);  m = fmaxf(m, o);
  o = __shfl_xor_sync(FULL_MASK, m, 4);  m = fmaxf(m, o);
  o = __shfl_xor_sync(FULL_MASK, m, 2);  m = fmaxf(m, o);
  o = __shfl_xor_sync(FULL_MASK, m, 1);  m = fmaxf(m, o);
  float sum = 0.0f;
  j = lane;
#pragma unroll 1
  while (j < cols) {  // SUM:
    unsigned idx = base + j;
    float v = x[idx];
    v = v - m;
    v = v * 1.44269504f;
    float e = ex2_approx(v);
    sum = sum + e;
    y[idx] = e;
    j += 32;
  }
  o = __shfl_xor_sync(FULL_MASK, sum, 16); sum = sum + o;
  o = __shfl_xor_sync(FULL_MASK, sum, 8);  sum = sum + o;
  o = __shfl_xor_sync(FULL_MASK, sum, 4);  sum = sum + o;
  o = __shfl_xor_sync(FULL_MASK, sum, 2);  sum = sum + o;
  o = __shfl_xor_sync(FULL_MASK, sum, 1);  sum = sum + o;
  float inv = rcp_approx(sum);
  j = lane;
#pragma unroll 1
  while (j < cols) {  // NORM:
    unsigned idx = base + j;
    float v = y[idx];
    v = v * inv;
    y[idx] = v;
    j += 32;
  }
}

// reduction_shuffle.hwk: each warp reduces its 32 values with shfl.bfly; lane 0 of each warp adds
// its partial into out[block] with an atomic.
__global__ void reduction_shuffle(float* x, float* out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[gid];
  float w;
  w = __shfl_xor_sync(FULL_MASK, v, 16); v = v + w;
  w = __shfl_xor_sync(FULL_MASK, v, 8);  v = v + w;
  w = __shfl_xor_sync(FULL_MASK, v, 4);  v = v + w;
  w = __shfl_xor_sync(FULL_MASK, v, 2);  v = v + w;
  w = __shfl_xor_sync(FULL_MASK, v, 1);  v = v + w;
  unsigned lane = threadIdx.x & 31;
  if (lane != 0) return;
  atomicAdd(&out[blockIdx.x], v);
}

// ============================================================================ helpers
// .hwk buffer initialisers: random = f32 in [-1, 1) (hash of index and seed), iota = index.
__global__ void init_random(float* p, unsigned long long n, unsigned seed) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  for (; i < n; i += step) {
    unsigned h = (unsigned)i * 2654435761u ^ (seed * 0x9e3779b9u) ^ (unsigned)(i >> 32);
    h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
    p[i] = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}
__global__ void init_iota(float* p, unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  for (; i < n; i += step) p[i] = (float)i;
}
__global__ void spin_kernel(float* out, int iters) {
  float a = threadIdx.x * 1e-3f, b = 1.0001f, c = 0.9999f;
  for (int i = 0; i < iters; ++i) { a = fmaf(a, b, c); c = fmaf(c, b, a); }
  if (a == 12345.0f) out[0] = a + c;
}

static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Case {
  std::string id, kernel;
  unsigned grid = 0, block = 0, n = 0, cols = 0;
  int check = 0;
};

struct Buf {
  float* p = nullptr;
  size_t n = 0;
  Buf() = default;
  explicit Buf(size_t count) : n(count) { CK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(float))); }
  ~Buf() { if (p) cudaFree(p); }
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
  std::vector<float> host() const {
    std::vector<float> h(n);
    CK(cudaMemcpy(h.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  }
};

static void fill_random(Buf& b, unsigned seed) {
  init_random<<<1024, 256>>>(b.p, b.n, seed);
  CK(cudaGetLastError());
}
static void fill_iota(Buf& b) {
  init_iota<<<1024, 256>>>(b.p, b.n);
  CK(cudaGetLastError());
}

struct Timing {
  double med = 0, mn = 0, mx = 0, single = 0;
  int K = 0, R = 0;
};

template <class L>
static Timing time_graph(L launch, cudaStream_t s) {
  Timing t;
  for (int i = 0; i < 3; ++i) launch(s);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a, s));
  launch(s);
  CK(cudaEventRecord(b, s));
  CK(cudaEventSynchronize(b));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  t.single = ms * 1e-3;
  double est = std::max(t.single, 1e-7);
  t.K = (int)std::min(2000.0, std::max(20.0, std::ceil(0.02 / est)));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int k = 0; k < t.K; ++k) launch(s);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  double replay = 0;
  std::vector<double> ts;
  t.R = 7;
  for (int r = 0; r < t.R; ++r) {
    CK(cudaEventRecord(a, s));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    replay = ms * 1e-3;
    ts.push_back(replay / t.K);
  }
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(ts.begin(), ts.end());
  t.med = ts[ts.size() / 2];
  t.mn = ts.front();
  t.mx = ts.back();
  return t;
}

static std::string jstr(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if ((unsigned char)c < 0x20) o += ' ';
    else o += c;
  }
  return o + "\"";
}

// ============================================================================ one case
struct Result {
  Timing t;
  std::string check = "none";
  double max_err = -1;
  double flops = 0, bytes = 0;
};

static Result run_case(const Case& c, cudaStream_t s) {
  Result res;
  const unsigned G = c.grid, B = c.block;
  const size_t threads = (size_t)G * B;
  if (c.kernel == "matmul_naive" || c.kernel.rfind("matmul_tiled", 0) == 0) {
    const unsigned n = c.n;
    const unsigned T = c.kernel == "matmul_tiled8" ? 8 : c.kernel == "matmul_tiled32" ? 32 : 16;
    if (c.kernel.rfind("matmul_tiled", 0) == 0 && (n % T != 0 || B != T * T || (size_t)G != (size_t)(n / T) * (n / T)))
      throw std::runtime_error("matmul_tiled needs n % T == 0, block T*T, grid (n/T)^2");
    if (c.kernel == "matmul_naive" && threads < (size_t)n * n) throw std::runtime_error("grid x block < n^2");
    Buf a((size_t)n * n), b((size_t)n * n), cc((size_t)n * n);
    fill_random(a, 1);
    fill_random(b, 2);
    CK(cudaMemset(cc.p, 0, cc.n * sizeof(float)));
    const bool tiled = c.kernel.rfind("matmul_tiled", 0) == 0;
    auto launch = [&](cudaStream_t st) {
      if (tiled && T == 8) matmul_tiled<8><<<G, B, 0, st>>>(n, a.p, b.p, cc.p);
      else if (tiled && T == 32) matmul_tiled<32><<<G, B, 0, st>>>(n, a.p, b.p, cc.p);
      else if (tiled) matmul_tiled<16><<<G, B, 0, st>>>(n, a.p, b.p, cc.p);
      else matmul_naive<<<G, B, 0, st>>>(n, a.p, b.p, cc.p);
    };
    CK(cudaDeviceSynchronize());  // initialisers ran on the legacy stream; s does not wait for it
    if (c.check) {
      launch(s);
      CK(cudaGetLastError());
      CK(cudaStreamSynchronize(s));
      auto ha = a.host(), hb = b.host(), hc = cc.host();
      double err = 0, ref_max = 0;
      for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j) {
          double r = 0;
          for (unsigned k = 0; k < n; ++k) r += (double)ha[(size_t)i * n + k] * hb[(size_t)k * n + j];
          err = std::max(err, std::fabs(r - hc[(size_t)i * n + j]));
          ref_max = std::max(ref_max, std::fabs(r));
        }
      res.max_err = err / std::max(ref_max, 1e-30);
      res.check = res.max_err < 1e-4 ? "ok" : "mismatch";
    }
    res.t = time_graph(launch, s);
    res.flops = 2.0 * n * (double)n * n;
    res.bytes = 3.0 * n * (double)n * 4;
  } else if (c.kernel == "vector_add") {
    const unsigned n = c.n;
    if (threads < n) throw std::runtime_error("grid x block < n");
    Buf a(threads), b(threads), cc(threads);  // the .hwk sizes its buffers to `threads`
    fill_iota(a);
    fill_iota(b);
    CK(cudaMemset(cc.p, 0, cc.n * sizeof(float)));
    auto launch = [&](cudaStream_t st) { vector_add<<<G, B, 0, st>>>(a.p, b.p, cc.p, n); };
    CK(cudaDeviceSynchronize());  // initialisers ran on the legacy stream; s does not wait for it
    if (c.check) {
      launch(s);
      CK(cudaGetLastError());
      CK(cudaStreamSynchronize(s));
      auto hc = cc.host();
      double err = 0;
      for (size_t i = 0; i < n; ++i) err = std::max(err, std::fabs((double)hc[i] - 2.0 * (double)(float)i));
      res.max_err = err;
      res.check = err == 0 ? "ok" : "mismatch";
    }
    res.t = time_graph(launch, s);
    res.bytes = 12.0 * n;
  } else if (c.kernel == "softmax") {
    const unsigned cols = c.cols, rows = G;
    if (B != 32) throw std::runtime_error("softmax needs block 32 (one warp per row)");
    Buf x((size_t)rows * cols), y((size_t)rows * cols);
    fill_random(x, 3);
    CK(cudaMemset(y.p, 0, y.n * sizeof(float)));
    auto launch = [&](cudaStream_t st) { softmax<<<G, B, 0, st>>>(cols, x.p, y.p); };
    CK(cudaDeviceSynchronize());  // initialisers ran on the legacy stream; s does not wait for it
    if (c.check) {
      launch(s);
      CK(cudaGetLastError());
      CK(cudaStreamSynchronize(s));
      auto hx = x.host(), hy = y.host();
      double err = 0;
      for (unsigned r = 0; r < rows; ++r) {
        double m = -1e300, sum = 0;
        for (unsigned j = 0; j < cols; ++j) m = std::max(m, (double)hx[(size_t)r * cols + j]);
        for (unsigned j = 0; j < cols; ++j) sum += std::exp((double)hx[(size_t)r * cols + j] - m);
        for (unsigned j = 0; j < cols; ++j) {
          double ref = std::exp((double)hx[(size_t)r * cols + j] - m) / sum;
          err = std::max(err, std::fabs(ref - hy[(size_t)r * cols + j]) / std::max(ref, 1e-30));
        }
      }
      res.max_err = err;
      res.check = err < 1e-4 ? "ok" : "mismatch";
    }
    res.t = time_graph(launch, s);
    res.bytes = 4.0 * rows * (double)cols * 4;  // x read twice, y written twice and read once (min 2)
  } else if (c.kernel == "reduction_shuffle") {
    Buf x(threads), out(G);
    fill_iota(x);
    CK(cudaMemset(out.p, 0, out.n * sizeof(float)));
    auto launch = [&](cudaStream_t st) { reduction_shuffle<<<G, B, 0, st>>>(x.p, out.p); };
    CK(cudaDeviceSynchronize());  // initialisers ran on the legacy stream; s does not wait for it
    if (c.check) {
      launch(s);
      CK(cudaGetLastError());
      CK(cudaStreamSynchronize(s));
      auto ho = out.host();
      double err = 0;
      for (unsigned g = 0; g < G; ++g) {
        double r = 0;
        for (unsigned t = 0; t < B; ++t) r += (double)(float)((size_t)g * B + t);
        err = std::max(err, std::fabs(r - ho[g]) / std::max(std::fabs(r), 1.0));
      }
      res.max_err = err;
      res.check = err < 1e-5 ? "ok" : "mismatch";
    }
    res.t = time_graph(launch, s);
    res.bytes = 4.0 * threads;
  } else {
    throw std::runtime_error("unknown kernel " + c.kernel);
  }
  CK(cudaStreamSynchronize(s));
  return res;
}

static std::vector<Case> read_cases(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  std::vector<Case> cs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    Case c;
    if (!(ss >> c.id >> c.kernel >> c.grid >> c.block >> c.n >> c.cols >> c.check)) {
      printf("{\"id\":%s,\"error\":\"unparseable case line\"}\n", jstr(line.substr(0, line.find(' '))).c_str());
      continue;
    }
    cs.push_back(c);
  }
  return cs;
}

static void print_device() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int clk = 0, rt = 0, drv = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  CK(cudaRuntimeGetVersion(&rt));
  CK(cudaDriverGetVersion(&drv));
  printf("{\"kind\":\"device\",\"name\":%s,\"sms\":%d,\"l2\":%d,\"mem_bytes\":%zu,\"clock_khz\":%d,"
         "\"cc\":\"%d.%d\",\"smem_per_sm\":%zu,\"runtime\":%d,\"driver\":%d}\n",
         jstr(p.name).c_str(), p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, clk, p.major, p.minor,
         p.sharedMemPerMultiprocessor, rt, drv);
  fflush(stdout);
}

static void spin(double seconds) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  float* out;
  CK(cudaMalloc(&out, 4));
  double t0 = now_s();
  int n = 0;
  while (now_s() - t0 < seconds) {
    spin_kernel<<<p.multiProcessorCount * 8, 256>>>(out, 20000);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    ++n;
  }
  CK(cudaFree(out));
  printf("{\"kind\":\"spin\",\"seconds\":%.3f,\"launches\":%d}\n", now_s() - t0, n);
  fflush(stdout);
}

int main(int argc, char** argv) {
  try {
    if (argc >= 2 && !strcmp(argv[1], "--device")) {
      print_device();
      return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "--spin")) {
      spin(atof(argv[2]));
      return 0;
    }
    if (argc < 3) {
      fprintf(stderr, "usage: %s CASEFILE DEADLINE_S [--parse-only] | --device | --spin S\n", argv[0]);
      return 1;
    }
    const double t0 = now_s();
    const double deadline = atof(argv[2]);
    const bool parse_only = argc >= 4 && !strcmp(argv[3], "--parse-only");
    std::vector<Case> cases = read_cases(argv[1]);
    if (parse_only) {
      for (const auto& c : cases)
        printf("{\"id\":%s,\"parsed\":true,\"kernel\":%s,\"grid\":%u,\"block\":%u,\"n\":%u,\"cols\":%u,\"check\":%d}\n",
               jstr(c.id).c_str(), jstr(c.kernel).c_str(), c.grid, c.block, c.n, c.cols, c.check);
      return 0;
    }
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (const auto& c : cases) {
      if (now_s() - t0 > deadline) {
        printf("{\"id\":%s,\"skipped\":\"budget\"}\n", jstr(c.id).c_str());
        fflush(stdout);
        continue;
      }
      try {
        Result r = run_case(c, s);
        printf("{\"id\":%s,\"kernel\":%s,\"grid\":%u,\"block\":%u,\"n\":%u,\"cols\":%u,\"seconds\":%.9g,"
               "\"tmin\":%.9g,\"tmax\":%.9g,\"t_single_launch\":%.9g,\"launches_per_graph\":%d,\"reps\":%d,"
               "\"check\":%s,\"max_err\":%.3g,\"flops\":%.6g,\"bytes\":%.6g}\n",
               jstr(c.id).c_str(), jstr(c.kernel).c_str(), c.grid, c.block, c.n, c.cols, r.t.med, r.t.mn, r.t.mx,
               r.t.single, r.t.K, r.t.R, jstr(r.check).c_str(), r.max_err, r.flops, r.bytes);
      } catch (const CudaError& e) {
        printf("{\"id\":%s,\"error\":%s}\n", jstr(c.id).c_str(), jstr(e.what()).c_str());
        fflush(stdout);
        if (e.sticky) return 2;
        cudaGetLastError();
      } catch (const std::exception& e) {
        printf("{\"id\":%s,\"error\":%s}\n", jstr(c.id).c_str(), jstr(e.what()).c_str());
      }
      fflush(stdout);
    }
    CK(cudaStreamDestroy(s));
  } catch (const std::exception& e) {
    fprintf(stderr, "fatal: %s\n", e.what());
    return 2;
  }
  return 0;
}
