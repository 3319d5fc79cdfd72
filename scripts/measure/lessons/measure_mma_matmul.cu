// Times workloads/kernels/lessons/mma_matmul.cu (cp.async + ldmatrix + mma.sync bf16) at
// 1024^3, 2048^3 and 4096^3 with lesson_runner.h's graph timing; one JSON line per size, in
// the lessons' record format (data/measurements/h200_matmul_ptx.jsonl). Inputs are hwsim's
// `random` buffers (f32 in [-1, 1) rounded to bf16), the check a naive fp32 product on the GPU:
// max |C - ref| / max |ref|.
#include "lesson_runner.h"
#define main lesson_main
#include "../../../workloads/kernels/lessons/mma_matmul.cu"
#undef main

__global__ void ref_matmul(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int n) {
  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) s += __bfloat162float(A[(size_t)r * n + k]) * __bfloat162float(B[(size_t)k * n + c]);
  C[(size_t)r * n + c] = s;
}

static std::vector<__nv_bfloat16> random_bf16(size_t count, uint64_t seed) {
  std::vector<__nv_bfloat16> v(count);
  for (size_t i = 0; i < count; ++i) {
    uint64_t r = lr::splitmix(seed * 0x100000001b3ull ^ lr::splitmix(i));
    v[i] = __float2bfloat16((float)((double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0));
  }
  return v;
}

int main() {
  cudaStream_t s;
  LR_CK(cudaStreamCreate(&s));
  lr::spin(0.5);
  for (int n : {1024, 2048, 4096}) {
    const size_t nn = (size_t)n * n;
    auto ha = random_bf16(nn, 1), hb = random_bf16(nn, 2);
    __nv_bfloat16 *a, *b;
    float *c, *ref;
    LR_CK(cudaMalloc(&a, nn * 2));
    LR_CK(cudaMalloc(&b, nn * 2));
    LR_CK(cudaMalloc(&c, nn * 4));
    LR_CK(cudaMalloc(&ref, nn * 4));
    LR_CK(cudaMemcpy(a, ha.data(), nn * 2, cudaMemcpyHostToDevice));
    LR_CK(cudaMemcpy(b, hb.data(), nn * 2, cudaMemcpyHostToDevice));
    LR_CK(cudaMemset(c, 0xff, nn * 4));  // poison: NaN where unwritten
    const dim3 grid(n / BN, n / BM), block(256);
    mma_matmul<<<grid, block, 0, s>>>(a, b, c, n, n, n);
    ref_matmul<<<dim3(n / 16, n / 16), dim3(16, 16), 0, s>>>(a, b, ref, n);
    LR_CK(cudaGetLastError());
    LR_CK(cudaStreamSynchronize(s));
    std::vector<float> hc(nn), hr(nn);
    LR_CK(cudaMemcpy(hc.data(), c, nn * 4, cudaMemcpyDeviceToHost));
    LR_CK(cudaMemcpy(hr.data(), ref, nn * 4, cudaMemcpyDeviceToHost));
    double err = 0, mx = 0;
    for (size_t i = 0; i < nn; ++i) {
      double d = std::fabs((double)hc[i] - hr[i]);
      err = std::isnan(hc[i]) ? INFINITY : std::max(err, d);
      mx = std::max(mx, (double)std::fabs(hr[i]));
    }
    err /= mx;
    lr::Timing t = lr::time_graph(
        [&](cudaStream_t st) { mma_matmul<<<grid, block, 0, st>>>(a, b, c, n, n, n); }, s);
    const double flops = 2.0 * n * n * (double)n;
    char args[512];
    snprintf(args, sizeof args, "\"0=bf16[%zu]:random:1\",\"1=bf16[%zu]:random:2\",\"2=f32[%zu]:zeros\",\"3=%d\",\"4=%d\",\"5=%d\"",
             nn, nn, nn, n, n, n);
    std::string cmd = "hwsim --chip h200 --kernel workloads/kernels/lessons/ptx/mma_matmul_sm90.ptx --entry mma_matmul";
    char tail[512];
    snprintf(tail, sizeof tail,
             " --grid %d,%d --block 256 --arg 0=bf16[%zu]:random:1 --arg 1=bf16[%zu]:random:2 --arg 2=f32[%zu]:zeros "
             "--arg 3=%d --arg 4=%d --arg 5=%d",
             n / BN, n / BM, nn, nn, nn, n, n, n);
    cmd += tail;
    printf("{\"kind\":\"lesson\",\"lesson\":\"mma_matmul\",\"kernel\":\"mma_matmul\",\"speedup_group\":\"mma_matmul\","
           "\"size\":%d,\"grid\":[%d,%d,1],\"block\":[256,1,1],\"dynamic_shared\":0,\"args\":[%s],"
           "\"hwsim_command\":%s,\"seconds\":%.6e,\"tmin\":%.6e,\"tmax\":%.6e,\"reps\":%d,\"launches_per_graph\":%d,"
           "\"single_launch_seconds\":%.6e,\"check\":\"%s\",\"max_err\":%.3e,\"flops\":%.6e,\"tflops\":%.1f,"
           "\"ptx\":\"workloads/kernels/lessons/ptx/mma_matmul_sm90.ptx\"}\n",
           n, n / BN, n / BM, args, lr::jstr(cmd).c_str(), t.med, t.mn, t.mx, t.R, t.K, t.single,
           err < 1e-3 ? "ok" : "mismatch", err, flops, flops / t.med * 1e-12);
    fflush(stdout);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(ref);
  }
  return 0;
}
