// Times workloads/kernels/lessons/histogram.cu's kernels (see lesson_runner.h), on random bytes
// (hwsim's u8 random: uniform over the 256 bins) and on a constant input (every atomic on one bin).
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/histogram.cu"
#undef main

int main(int argc, char** argv) {
  const unsigned n = 4u << 20;
  auto check = [n](const lr::Args& in, const lr::Args& out) {
    const uint8_t* d = in.in<uint8_t>(0);
    const unsigned* h = out.in<unsigned>(1);
    std::vector<double> ref(256, 0);
    for (unsigned i = 0; i < n; ++i) ref[d[i]] += 1;
    lr::CheckResult r{true, 0};
    for (int b = 0; b < 256; ++b) r.max_err = std::max(r.max_err, std::fabs(h[b] - ref[b]));
    r.ok = r.max_err == 0;
    return r;
  };
  std::vector<std::string> rnd = {"0=u8[4194304]:random:1", "1=u32[256]:zeros", "2=4194304"};
  std::vector<std::string> one = {"0=u8[4194304]:fill:7", "1=u32[256]:zeros", "2=4194304"};
  std::vector<lr::Case> cs = {
      {"histogram", "hist_global", "histogram", (const void*)hist_global, dim3(1024), dim3(256), 0, rnd, check,
       (double)n},
      {"histogram", "hist_shared", "histogram", (const void*)hist_shared, dim3(1024), dim3(256), 0, rnd, check,
       (double)n},
      {"histogram", "hist_global", "histogram_one_bin", (const void*)hist_global, dim3(1024), dim3(256), 0, one,
       check, (double)n},
      {"histogram", "hist_shared", "histogram_one_bin", (const void*)hist_shared, dim3(1024), dim3(256), 0, one,
       check, (double)n},
  };
  return lr::run_all(argc, argv, cs);
}
