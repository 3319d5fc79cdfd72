// Timing harness for the CUDA lessons (workloads/kernels/lessons/*.cu) on a real GPU.
//
// Each measure_<lesson>.cu includes its lesson file (with the lesson's own `main` renamed) and a
// table of cases. A case names a kernel, its grid, block and dynamic shared memory, and its
// arguments in hwsim's `--arg` syntax, by parameter position:
//   buffers  "I=TYPE[COUNT]:INIT[:SEED]"  TYPE u8, s32, u32, f32; INIT zeros, ones, iota,
//            random:SEED, fill:V -- filled on the host with hwsim's own generator
//            (models/gpu/warp/global_memory.cpp: Buffer::generated_element), so the GPU sees the
//            very values the simulator will
//   scalars  "I=VALUE"  (4-byte int/unsigned; a VALUE with '.' or 'e' is a float)
// so the JSON record's `args` are exactly what ran. The kernel is launched through
// cudaLaunchKernel with those parameters.
//
// Per case: inputs uploaded, one launch, results copied back and compared with a CPU reference
// (the case's check function; "ok" or "mismatch" with its max error); then the timing of
// scripts/measure/campaign/classroom.cu: 3 warm-up launches, one event-timed launch to size the
// graph, K launches (K ~ 20 ms of work, 20 <= K <= 2000) captured in a CUDA graph, one untimed
// replay, 7 replays timed with CUDA events; seconds = median over replays of replay time / K
// (launch gaps inside the graph included). A 0.5 s FMA spin first raises the clocks.
//
// Usage: measure_<lesson> [--device]   one JSON line per case on stdout (--device: the device)
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lr {

inline void ck(cudaError_t e, const char* what, int line) {
  if (e == cudaSuccess) return;
  char buf[512];
  snprintf(buf, sizeof buf, "%s (%s) at line %d: %s", cudaGetErrorName(e), cudaGetErrorString(e), line, what);
  throw std::runtime_error(buf);
}
#define LR_CK(x) lr::ck((x), #x, __LINE__)

// ---------------------------------------------------------------- hwsim's buffer generator
inline uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Arg {
  int pos = 0;
  bool buffer = false;
  std::string spec;  // as written in the case ("0=f32[1048576]:random:1")
  std::string type, init;
  uint64_t count = 0, seed = 0;
  double fill = 0;
  uint32_t scalar_bits = 0;
  std::vector<uint8_t> host;  // initial contents, then results
  void* dev = nullptr;
  int elem_bytes() const { return type == "u8" ? 1 : 4; }
};

inline Arg parse_arg(const std::string& s) {
  Arg a;
  a.spec = s;
  size_t eq = s.find('=');
  if (eq == std::string::npos) throw std::runtime_error("arg without '=': " + s);
  a.pos = atoi(s.substr(0, eq).c_str());
  std::string v = s.substr(eq + 1);
  size_t lb = v.find('[');
  if (lb == std::string::npos) {  // scalar
    if (v.find_first_of(".eE") != std::string::npos) {
      float f = (float)atof(v.c_str());
      memcpy(&a.scalar_bits, &f, 4);
    } else {
      long long x = atoll(v.c_str());
      a.scalar_bits = (uint32_t)x;
    }
    return a;
  }
  a.buffer = true;
  a.type = v.substr(0, lb);
  size_t rb = v.find(']');
  a.count = strtoull(v.substr(lb + 1, rb - lb - 1).c_str(), nullptr, 10);
  std::string rest = rb + 1 < v.size() && v[rb + 1] == ':' ? v.substr(rb + 2) : "zeros";
  size_t c = rest.find(':');
  a.init = rest.substr(0, c);
  if (c != std::string::npos) {
    if (a.init == "fill") a.fill = atof(rest.substr(c + 1).c_str());
    else a.seed = strtoull(rest.substr(c + 1).c_str(), nullptr, 10);
  }
  if (a.type != "u8" && a.type != "s32" && a.type != "u32" && a.type != "f32")
    throw std::runtime_error("unsupported type in " + s);
  return a;
}

// Buffer::generated_element for u8 / s32 / u32 / f32.
inline void generate(Arg& a) {
  const bool f = a.type == "f32";
  a.host.assign(a.count * a.elem_bytes(), 0);
  for (uint64_t i = 0; i < a.count; ++i) {
    double v = 0;
    if (a.init == "zeros") v = 0;
    else if (a.init == "ones") v = 1;
    else if (a.init == "fill") v = a.fill;
    else if (a.init == "iota") v = (double)i;
    else if (a.init == "random") {
      uint64_t r = splitmix(a.seed * 0x100000001b3ull ^ splitmix(i));
      v = f ? (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0 : (double)(r % 1024);
    } else
      throw std::runtime_error("unsupported init in " + a.spec);
    if (f) {
      float x = (float)v;
      memcpy(&a.host[i * 4], &x, 4);
    } else if (a.type == "s32") {
      int32_t x = (int32_t)(int64_t)v;
      memcpy(&a.host[i * 4], &x, 4);
    } else if (a.type == "u32") {
      uint32_t x = (uint32_t)(uint64_t)v;
      memcpy(&a.host[i * 4], &x, 4);
    } else {
      a.host[i] = (uint8_t)(uint64_t)v;
    }
  }
}

// ---------------------------------------------------------------- cases
struct Args {
  std::vector<Arg> a;  // by position
  template <class T>
  const T* in(int pos) const { return reinterpret_cast<const T*>(a.at(pos).host.data()); }
  uint32_t u(int pos) const { return a.at(pos).scalar_bits; }
};

struct CheckResult {
  bool ok = false;
  double max_err = -1;
};

struct Case {
  std::string lesson, kernel, group;
  const void* func;
  dim3 grid, block;
  size_t dynamic_shared;
  std::vector<std::string> args;
  // init: the arguments as uploaded; out: the same after one launch (buffers copied back)
  std::function<CheckResult(const Args& init, const Args& out)> check;
  double min_bytes = 0, flops = 0;  // for GB/s and GFLOP/s columns (0: none)
};

struct Timing {
  double med = 0, mn = 0, mx = 0, single = 0;
  int K = 0, R = 0;
};

template <class L>
Timing time_graph(L launch, cudaStream_t s) {
  Timing t;
  for (int i = 0; i < 3; ++i) launch(s);
  LR_CK(cudaGetLastError());
  LR_CK(cudaStreamSynchronize(s));
  cudaEvent_t a, b;
  LR_CK(cudaEventCreate(&a));
  LR_CK(cudaEventCreate(&b));
  LR_CK(cudaEventRecord(a, s));
  launch(s);
  LR_CK(cudaEventRecord(b, s));
  LR_CK(cudaEventSynchronize(b));
  float ms = 0;
  LR_CK(cudaEventElapsedTime(&ms, a, b));
  t.single = ms * 1e-3;
  double est = std::max(t.single, 1e-7);
  t.K = (int)std::min(2000.0, std::max(20.0, std::ceil(0.02 / est)));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  LR_CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int k = 0; k < t.K; ++k) launch(s);
  LR_CK(cudaStreamEndCapture(s, &g));
  LR_CK(cudaGraphInstantiate(&ge, g, 0));
  LR_CK(cudaGraphLaunch(ge, s));
  LR_CK(cudaStreamSynchronize(s));
  std::vector<double> ts;
  t.R = 7;
  for (int r = 0; r < t.R; ++r) {
    LR_CK(cudaEventRecord(a, s));
    LR_CK(cudaGraphLaunch(ge, s));
    LR_CK(cudaEventRecord(b, s));
    LR_CK(cudaEventSynchronize(b));
    LR_CK(cudaEventElapsedTime(&ms, a, b));
    ts.push_back(ms * 1e-3 / t.K);
  }
  LR_CK(cudaGraphExecDestroy(ge));
  LR_CK(cudaGraphDestroy(g));
  LR_CK(cudaEventDestroy(a));
  LR_CK(cudaEventDestroy(b));
  std::sort(ts.begin(), ts.end());
  t.med = ts[ts.size() / 2];
  t.mn = ts.front();
  t.mx = ts.back();
  return t;
}

inline std::string jstr(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if ((unsigned char)c < 0x20) o += ' ';
    else o += c;
  }
  return o + "\"";
}

inline std::string dims(const dim3& d) {
  char b[64];
  snprintf(b, sizeof b, "[%u,%u,%u]", d.x, d.y, d.z);
  return b;
}

inline std::string hwsim_command(const Case& c) {
  std::string cmd = "hwsim --chip h200 --set gpu.core.model=warp --kernel workloads/kernels/lessons/" + c.lesson +
                    ".cu --entry ";
  bool quote = c.kernel.find_first_of("<> ,") != std::string::npos;
  cmd += quote ? "'" + c.kernel + "'" : c.kernel;
  char b[128];
  if (c.grid.y == 1 && c.grid.z == 1) snprintf(b, sizeof b, " --grid %u", c.grid.x);
  else snprintf(b, sizeof b, " --grid %u,%u,%u", c.grid.x, c.grid.y, c.grid.z);
  cmd += b;
  if (c.block.y == 1 && c.block.z == 1) snprintf(b, sizeof b, " --block %u", c.block.x);
  else snprintf(b, sizeof b, " --block %u,%u,%u", c.block.x, c.block.y, c.block.z);
  cmd += b;
  if (c.dynamic_shared) {
    snprintf(b, sizeof b, " --dynamic-shared %zu", c.dynamic_shared);
    cmd += b;
  }
  for (auto& a : c.args) cmd += " --arg " + a;
  return cmd;
}

__global__ void lr_spin_kernel(float* out, int iters) {
  float a = threadIdx.x * 1e-3f, b = 1.0001f, c = 0.9999f;
  for (int i = 0; i < iters; ++i) { a = fmaf(a, b, c); c = fmaf(c, b, a); }
  if (a == 12345.0f) out[0] = a + c;
}

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline void spin(double seconds) {
  cudaDeviceProp p;
  LR_CK(cudaGetDeviceProperties(&p, 0));
  float* out;
  LR_CK(cudaMalloc(&out, 4));
  double t0 = now_s();
  while (now_s() - t0 < seconds) {
    lr_spin_kernel<<<p.multiProcessorCount * 8, 256>>>(out, 20000);
    LR_CK(cudaGetLastError());
    LR_CK(cudaDeviceSynchronize());
  }
  LR_CK(cudaFree(out));
}

inline void print_device() {
  cudaDeviceProp p;
  LR_CK(cudaGetDeviceProperties(&p, 0));
  int clk = 0, mclk = 0, rt = 0, drv = 0;
  cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
  LR_CK(cudaRuntimeGetVersion(&rt));
  LR_CK(cudaDriverGetVersion(&drv));
  printf("{\"kind\":\"device\",\"name\":%s,\"sms\":%d,\"l2\":%d,\"mem_bytes\":%zu,\"clock_khz\":%d,"
         "\"mem_clock_khz\":%d,\"cc\":\"%d.%d\",\"smem_per_sm\":%zu,\"runtime\":%d,\"driver\":%d}\n",
         jstr(p.name).c_str(), p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, clk, mclk, p.major, p.minor,
         p.sharedMemPerMultiprocessor, rt, drv);
  fflush(stdout);
}

inline void run_case(const Case& c, const std::string& device, cudaStream_t s) {
  Args init;
  for (auto& sp : c.args) init.a.push_back(parse_arg(sp));
  std::sort(init.a.begin(), init.a.end(), [](const Arg& x, const Arg& y) { return x.pos < y.pos; });
  for (size_t i = 0; i < init.a.size(); ++i)
    if (init.a[i].pos != (int)i) throw std::runtime_error("args must name positions 0..n-1");
  std::vector<void*> params(init.a.size());
  for (size_t i = 0; i < init.a.size(); ++i) {
    Arg& a = init.a[i];
    if (a.buffer) {
      generate(a);
      LR_CK(cudaMalloc(&a.dev, std::max<size_t>(a.host.size(), 4)));
      LR_CK(cudaMemcpy(a.dev, a.host.data(), a.host.size(), cudaMemcpyHostToDevice));
      params[i] = &a.dev;
    } else {
      params[i] = &a.scalar_bits;
    }
  }
  auto launch = [&](cudaStream_t st) {
    LR_CK(cudaLaunchKernel(c.func, c.grid, c.block, params.data(), c.dynamic_shared, st));
  };
  // check: one launch from the initial contents
  launch(s);
  LR_CK(cudaGetLastError());
  LR_CK(cudaStreamSynchronize(s));
  Args out = init;
  for (auto& a : out.a)
    if (a.buffer) LR_CK(cudaMemcpy(a.host.data(), a.dev, a.host.size(), cudaMemcpyDeviceToHost));
  CheckResult cr = c.check ? c.check(init, out) : CheckResult{};
  Timing t = time_graph(launch, s);
  LR_CK(cudaStreamSynchronize(s));
  for (auto& a : init.a)
    if (a.dev) cudaFree(a.dev);

  std::string args = "[";
  for (size_t i = 0; i < c.args.size(); ++i) args += (i ? "," : "") + jstr(c.args[i]);
  args += "]";
  printf("{\"kind\":\"lesson\",\"device\":%s,\"lesson\":%s,\"kernel\":%s,\"speedup_group\":%s,\"grid\":%s,"
         "\"block\":%s,\"dynamic_shared\":%zu,\"args\":%s,\"hwsim_command\":%s,\"seconds\":%.6e,\"tmin\":%.6e,"
         "\"tmax\":%.6e,\"reps\":%d,\"launches_per_graph\":%d,\"single_launch_seconds\":%.6e,\"check\":%s,"
         "\"max_err\":%.3e",
         jstr(device).c_str(), jstr(c.lesson).c_str(), jstr(c.kernel).c_str(), jstr(c.group).c_str(),
         dims(c.grid).c_str(), dims(c.block).c_str(), c.dynamic_shared, args.c_str(), jstr(hwsim_command(c)).c_str(),
         t.med, t.mn, t.mx, t.R, t.K, t.single, jstr(c.check ? (cr.ok ? "ok" : "mismatch") : "none").c_str(),
         cr.max_err);
  if (c.min_bytes > 0) printf(",\"min_bytes\":%.0f,\"gbps\":%.1f", c.min_bytes, c.min_bytes / t.med * 1e-9);
  if (c.flops > 0) printf(",\"flops\":%.0f,\"gflops\":%.1f", c.flops, c.flops / t.med * 1e-9);
  printf("}\n");
  fflush(stdout);
}

inline int run_all(int argc, char** argv, const std::vector<Case>& cases) {
  try {
    if (argc >= 2 && !strcmp(argv[1], "--device")) {
      print_device();
      return 0;
    }
    cudaDeviceProp p;
    LR_CK(cudaGetDeviceProperties(&p, 0));
    cudaStream_t s;
    LR_CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    spin(0.5);
    int bad = 0;
    for (auto& c : cases) {
      try {
        run_case(c, p.name, s);
      } catch (const std::exception& e) {
        printf("{\"kind\":\"error\",\"lesson\":%s,\"kernel\":%s,\"error\":%s}\n", jstr(c.lesson).c_str(),
               jstr(c.kernel).c_str(), jstr(e.what()).c_str());
        fflush(stdout);
        ++bad;
        if (cudaGetLastError() != cudaSuccess) { /* cleared */ }
      }
    }
    return bad ? 3 : 0;
  } catch (const std::exception& e) {
    fprintf(stderr, "fatal: %s\n", e.what());
    return 2;
  }
}

}  // namespace lr

#define LR_FLOAT(args, pos) ((args).in<float>(pos))
