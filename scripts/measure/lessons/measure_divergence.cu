// Times workloads/kernels/lessons/divergence.cu's kernels (see lesson_runner.h).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/divergence.cu"
#undef main

int main(int argc, char** argv) {
  const int n = 1 << 20, block = 256, iters = 64;
  auto check_for = [=](int mode) {  // 0: all path a, 1: by warp, 2: by lane parity
    return [=](const lr::Args& in, const lr::Args& out) {
      const float* x = in.in<float>(0);
      const float* y = out.in<float>(1);
      lr::CheckResult r{true, 0};
      for (int i = 0; i < n; ++i) {
        int t = i % block;
        bool a = mode == 0 || (mode == 1 ? (t / 32) % 2 == 0 : (t & 1) == 0);
        float want = a ? host_a(x[i], iters) : host_b(x[i], iters);
        r.max_err = std::max(r.max_err, std::fabs((double)y[i] - want) / std::max(1.0, (double)std::fabs(want)));
      }
      r.ok = r.max_err < 1e-5;
      return r;
    };
  };
  std::vector<std::string> args = {"0=f32[1048576]:random:1", "1=f32[1048576]:zeros", "2=64"};
  const double flops = 2.0 * 2 * iters * (double)n;
  std::vector<lr::Case> cs = {
      {"divergence", "branch_none", "divergence", (const void*)branch_none, dim3(4096), dim3(256), 0, args,
       check_for(0), 8.0 * n, flops},
      {"divergence", "branch_warp", "divergence", (const void*)branch_warp, dim3(4096), dim3(256), 0, args,
       check_for(1), 8.0 * n, flops},
      {"divergence", "branch_lane", "divergence", (const void*)branch_lane, dim3(4096), dim3(256), 0, args,
       check_for(2), 8.0 * n, flops},
  };
  return lr::run_all(argc, argv, cs);
}
