// Times workloads/kernels/lessons/softmax.cu's kernels (see lesson_runner.h).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/softmax.cu"
#undef main

int main(int argc, char** argv) {
  const int rows = 4096, cols = 1024;
  auto check = [=](const lr::Args& in, const lr::Args& out) {
    const float* x = in.in<float>(0);
    const float* y = out.in<float>(1);
    lr::CheckResult r{true, 0};
    for (int i = 0; i < rows; ++i) {
      const float* xr = x + (size_t)i * cols;
      double m = -1e300, s = 0;
      for (int j = 0; j < cols; ++j) m = std::max(m, (double)xr[j]);
      for (int j = 0; j < cols; ++j) s += std::exp(xr[j] - m);
      for (int j = 0; j < cols; ++j) {
        double want = std::exp(xr[j] - m) / s;
        r.max_err = std::max(r.max_err, std::fabs(want - y[(size_t)i * cols + j]) / want);
      }
    }
    r.ok = r.max_err < 1e-4;
    return r;
  };
  std::vector<std::string> args = {"0=f32[4194304]:random:1", "1=f32[4194304]:zeros", "2=1024"};
  const double bytes = 2.0 * 4 * rows * cols;
  std::vector<lr::Case> cs = {
      {"softmax", "softmax_shared", "softmax", (const void*)softmax_shared, dim3(4096), dim3(256), 0, args, check,
       bytes},
      {"softmax", "softmax_shuffle", "softmax", (const void*)softmax_shuffle, dim3(4096), dim3(256), 0, args, check,
       bytes},
  };
  return lr::run_all(argc, argv, cs);
}
