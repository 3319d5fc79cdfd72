#!/usr/bin/env python3
"""Writes data/public/a100_kernels.jsonl: published A100 kernel timings as hwsim measurement records,
one record per printed number, each naming its source (`source`, a key into SOURCES), its software
and timing method (`software`), the chip file that judges it (`chip`, with `set` overrides where
the measured part differs from configs/a100.toml) and its `role` ("fit": it set a parameter, listed
in data/measurements/fitted.toml; "judge": it set nothing).

Sources:
  TRITON  the Triton tutorials as printed on triton-lang.org/main (02-fused-softmax: torch.softmax
          column; 03-matrix-multiplication: cuBLAS column). The documentation job runs the tutorials
          on the project's A100 runners (triton-lang/triton PR #1522 "[DOCS] Documentation job now uses
          A100 GPUs"; PR #4118 moves it to `a100-runner-set`). The page does not print the A100
          variant: its torch.softmax reaches 1.51 TB/s, above what a 40GB part (1.555 TB/s peak)
          streams, so an 80GB part; configs/a100.toml is the SXM4 80GB.
          The figures were read from a public copy of the rendered page (code search: the
          02-fused-softmax "softmax-performance" and 03 "matmul-performance-fp16" tables).
  LIGER   linkedin/Liger-Kernel benchmark/data/all_benchmark_data.csv (rows with gpu_name
          "NVIDIA A100-SXM4-80GB", liger_version 0.2.1, 2024-09-03): torch.nn.LayerNorm forward
          ("huggingface" provider), M = 4096 rows, fp32, eps 1e-6, timed with
          triton.testing.do_bench (L2 flushed before each call), the median (y_value_50).
Run: python3 scripts/make_public_a100_records.py
"""
import json, os
from public_records import write_public

SOURCES = {
    "TRITON-SOFTMAX": "Triton tutorial 02-fused-softmax as printed on https://triton-lang.org/main/getting-started/"
                      "tutorials/02-fused-softmax.html (table 'softmax-performance', column Torch, GB/s = 2 x M x N x 4 B / time); "
                      "the docs job runs on A100 (triton-lang/triton PR #1522, #4118); read from a public copy of the page",
    "TRITON-MATMUL": "Triton tutorial 03-matrix-multiplication as printed on https://triton-lang.org/main/getting-started/"
                     "tutorials/03-matrix-multiplication.html (table 'matmul-performance-fp16', column cuBLAS, TFLOPS = "
                     "2 M N K / time); the docs job runs on A100 (triton-lang/triton PR #1522, #4118); read from a public copy",
    "LIGER": "linkedin/Liger-Kernel benchmark/data/all_benchmark_data.csv (commit ead96b6, rows of 2024-09-03, "
             "liger_version 0.2.1, gpu_name 'NVIDIA A100-SXM4-80GB'): kernel layer_norm, provider huggingface, forward, "
             "y_value_50",
}
SOFTWARE = {
    "TRITON-SOFTMAX": "PyTorch torch.softmax(x, axis=-1), x = torch.randn(4096, N, float32) (PyTorch version not printed); "
                      "triton.testing.do_bench (CUDA events, L2 flushed before each call, median)",
    "TRITON-MATMUL": "PyTorch torch.matmul(a, b), a [M, K] and b [K, N] float16, cuBLAS (versions not printed); "
                     "triton.testing.do_bench (CUDA events, L2 flushed before each call, median)",
    "LIGER": "PyTorch torch.nn.LayerNorm(N, eps=1e-6) forward on x [4096, N] float32 (benchmark_layer_norm.py); "
             "triton.testing.do_bench (CUDA events, L2 flushed before each call, median)",
}

M_SOFTMAX = 4096
# TRITON-SOFTMAX, torch.softmax, fp32, M = 4096: (N, GB/s) as printed. N = 1152-2048 are left out:
# the printed run's PyTorch took its block kernel there (the drop at 1152), the version hwsim
# models (2.11: softmax_warp_forward up to 2048 elements and 8 KiB) its warp kernel.
SOFTMAX_FP32 = [
    (256, 691.275536), (512, 911.741697), (768, 1032.142255), (1024, 1125.458375),
    (2560, 1086.191253), (3072, 1186.814340), (3584, 1257.543915), (4096, 1329.262438),
    (4224, 1158.075238), (5120, 1251.846144), (6144, 1373.381405), (7168, 1436.115399),
    (8192, 1483.758419), (8320, 1402.088901), (9216, 1424.541599), (10240, 1470.101736),
    (11264, 1485.436424), (12160, 1511.607885), (12288, 1393.721063), (12672, 1393.614559),
]
# TRITON-MATMUL, torch.matmul fp16 (cuBLAS), square M = N = K: (n, TFLOPS) as printed.
MATMUL_FP16 = [
    (1024, 110.376426), (1536, 176.947204), (2048, 223.696203), (2560, 224.438347),
    (3072, 209.715208), (3584, 219.305830), (4096, 219.668951),
]
# LIGER, torch.nn.LayerNorm forward, fp32, M = 4096: (N, ms).
LAYERNORM_FP32 = [
    (1024, 0.034143999218940735), (2048, 0.05734400078654289), (4096, 0.1218239963054657),
    (8192, 0.25755199790000916), (16384, 0.5066879987716675),
]
# Records that fitted a parameter (data/measurements/fitted.toml lists them): the 4096 x 8192 softmax
# fitted configs/a100.toml's gpu.elementwise.softmax_ops_per_element; every other record judges.
FIT = {("TRITON-SOFTMAX", 8192)}


def base(kind, source, key):
    return dict(kind=kind, chip="a100", device="a100_sxm4_80gb", source=SOURCES[source], software=SOFTWARE[source],
                role="fit" if (source, key) in FIT else "judge")


def records():
    out = []
    for n, gbps in SOFTMAX_FP32:
        r = base("elementwise_op", "TRITON-SOFTMAX", n)
        r.update(op="softmax", rows=M_SOFTMAX, cols=n, numel=M_SOFTMAX * n, dtype="fp32",
                 seconds=2 * M_SOFTMAX * n * 4 / (gbps * 1e9), gbps=gbps,
                 derived="seconds = 2 x 4096 x N x 4 B / (printed GB/s)")
        out.append(r)
    for n, tflops in MATMUL_FP16:
        r = base("gemm", "TRITON-MATMUL", n)
        r.update(M=n, N=n, K=n, dtype="fp16", seconds=2 * n ** 3 / (tflops * 1e12), tflops=tflops,
                 derived="seconds = 2 n^3 / (printed TFLOPS)")
        out.append(r)
    for n, ms in LAYERNORM_FP32:
        r = base("layernorm", "LIGER", n)
        r.update(T=4096, D=n, dtype="fp32", seconds=ms / 1e3)
        out.append(r)
    return out


def main():
    out = records()
    write_public("a100_kernels.jsonl", out)


if __name__ == "__main__":
    main()
