// Times workloads/kernels/lessons/transpose.cu's kernels (see lesson_runner.h).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/transpose.cu"
#undef main

int main(int argc, char** argv) {
  const int w = 2048, h = 2048;
  auto check_for = [w, h](bool transposed) {
    return [w, h, transposed](const lr::Args& in, const lr::Args& out) {
      const float* x = in.in<float>(0);
      const float* y = out.in<float>(1);
      lr::CheckResult r{true, 0};
      for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
          // transposed: out has w rows of h: out[j][i] = in[i][j]
          float got = transposed ? y[(size_t)j * h + i] : y[(size_t)i * w + j];
          r.max_err = std::max(r.max_err, (double)std::fabs(got - x[(size_t)i * w + j]));
        }
      r.ok = r.max_err == 0;
      return r;
    };
  };
  std::vector<std::string> args = {"0=f32[4194304]:random:1", "1=f32[4194304]:zeros", "2=2048", "3=2048"};
  const double bytes = 2.0 * 4 * w * h;
  std::vector<lr::Case> cs = {
      {"transpose", "copy_coalesced", "transpose", (const void*)copy_coalesced, dim3(64, 64), dim3(32, 8), 0, args,
       check_for(false), bytes},
      {"transpose", "transpose_naive", "transpose", (const void*)transpose_naive, dim3(64, 64), dim3(32, 8), 0, args,
       check_for(true), bytes},
      {"transpose", "transpose_shared", "transpose", (const void*)transpose_shared, dim3(64, 64), dim3(32, 8), 0, args,
       check_for(true), bytes},
      {"transpose", "transpose_padded", "transpose", (const void*)transpose_padded, dim3(64, 64), dim3(32, 8), 0, args,
       check_for(true), bytes},
  };
  return lr::run_all(argc, argv, cs);
}
