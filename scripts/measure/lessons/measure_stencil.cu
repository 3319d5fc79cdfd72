// Times workloads/kernels/lessons/stencil.cu's kernels (see lesson_runner.h).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/stencil.cu"
#undef main

int main(int argc, char** argv) {
  const int n = 4 << 20;
  auto check = [n](const lr::Args& in, const lr::Args& out) {
    const float* x = in.in<float>(0);
    const float* y = out.in<float>(1);
    lr::CheckResult r{true, 0};
    for (int i = 0; i < n; ++i) {
      double want = 0;
      for (int d = -3; d <= 3; ++d)
        if (i + d >= 0 && i + d < n) want += (4 - std::abs(d)) * 0.0625 * x[i + d];
      r.max_err = std::max(r.max_err, std::fabs(want - y[i]));
    }
    r.ok = r.max_err < 1e-5;
    return r;
  };
  std::vector<std::string> args = {"0=f32[4194304]:random:1", "1=f32[4194304]:zeros", "2=4194304"};
  std::vector<lr::Case> cs = {
      {"stencil", "stencil_global", "stencil", (const void*)stencil_global, dim3(16384), dim3(256), 0, args, check,
       8.0 * n},
      {"stencil", "stencil_shared", "stencil", (const void*)stencil_shared, dim3(16384), dim3(256), (256 + 6) * 4,
       args, check, 8.0 * n},
  };
  return lr::run_all(argc, argv, cs);
}
