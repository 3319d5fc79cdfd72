// Times workloads/kernels/lessons/sgemm.cu's kernels (see lesson_runner.h).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/sgemm.cu"
#undef main

int main(int argc, char** argv) {
  const int n = 512;
  static std::vector<double> ref;  // A * B in double, computed once (same inputs for every case)
  auto check = [n](const lr::Args& in, const lr::Args& out) {
    const float* a = in.in<float>(0);
    const float* b = in.in<float>(1);
    const float* c = out.in<float>(2);
    if (ref.empty()) {
      ref.assign((size_t)n * n, 0.0);
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) {
          double av = a[(size_t)i * n + k];
          for (int j = 0; j < n; ++j) ref[(size_t)i * n + j] += av * b[(size_t)k * n + j];
        }
    }
    double err = 0, mx = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i) {
      err = std::max(err, std::fabs(c[i] - ref[i]));
      mx = std::max(mx, std::fabs(ref[i]));
    }
    lr::CheckResult r;
    r.max_err = err / std::max(mx, 1e-30);  // max abs error over max |C|
    r.ok = r.max_err < 1e-4;
    return r;
  };
  std::vector<std::string> args = {"0=f32[262144]:random:1", "1=f32[262144]:random:2", "2=f32[262144]:zeros",
                                   "3=512"};
  const double bytes = 3.0 * 4 * n * n, flops = 2.0 * n * n * n;
  std::vector<lr::Case> cs = {
      {"sgemm", "sgemm_naive", "sgemm", (const void*)sgemm_naive, dim3(32, 32), dim3(16, 16), 0, args, check, bytes,
       flops},
      {"sgemm", "sgemm_tiled", "sgemm", (const void*)sgemm_tiled, dim3(32, 32), dim3(16, 16), 0, args, check, bytes,
       flops},
      {"sgemm", "sgemm_regblock", "sgemm", (const void*)sgemm_regblock, dim3(8, 8), dim3(16, 16), 0, args, check,
       bytes, flops},
  };
  return lr::run_all(argc, argv, cs);
}
