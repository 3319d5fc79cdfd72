// Times workloads/kernels/lessons/reduction.cu's kernels (see lesson_runner.h).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/reduction.cu"
#undef main

int main(int argc, char** argv) {
  const unsigned n = 1u << 20;
  // each partial: |gpu - sum of its segment| / sum of |x| over the segment
  auto check_for = [n](unsigned per_block) {
    return [n, per_block](const lr::Args& in, const lr::Args& out) {
      const float* x = in.in<float>(0);
      const float* p = out.in<float>(1);
      lr::CheckResult r{true, 0};
      for (unsigned b = 0; b < n / per_block; ++b) {
        double s = 0, a = 0;
        for (unsigned i = b * per_block; i < (b + 1) * per_block; ++i) s += x[i], a += std::fabs(x[i]);
        double e = std::fabs(p[b] - s) / std::max(a, 1e-30);
        r.max_err = std::max(r.max_err, e);
      }
      r.ok = r.max_err < 1e-5;
      return r;
    };
  };
  const char* in = "0=f32[1048576]:random:1";
  const char* n_arg = "2=1048576";
  std::vector<lr::Case> cs = {
      {"reduction", "reduce_interleaved_divergent", "reduction", (const void*)reduce_interleaved_divergent,
       dim3(4096), dim3(256), 1024, {in, "1=f32[4096]:zeros", n_arg}, check_for(256), 4.0 * n},
      {"reduction", "reduce_interleaved_strided", "reduction", (const void*)reduce_interleaved_strided, dim3(4096),
       dim3(256), 1024, {in, "1=f32[4096]:zeros", n_arg}, check_for(256), 4.0 * n},
      {"reduction", "reduce_sequential", "reduction", (const void*)reduce_sequential, dim3(4096), dim3(256), 1024,
       {in, "1=f32[4096]:zeros", n_arg}, check_for(256), 4.0 * n},
      {"reduction", "reduce_first_add", "reduction", (const void*)reduce_first_add, dim3(2048), dim3(256), 1024,
       {in, "1=f32[2048]:zeros", n_arg}, check_for(512), 4.0 * n},
      {"reduction", "reduce_unrolled<256>", "reduction", (const void*)reduce_unrolled<256>, dim3(2048), dim3(256), 0,
       {in, "1=f32[2048]:zeros", n_arg}, check_for(512), 4.0 * n},
  };
  return lr::run_all(argc, argv, cs);
}
