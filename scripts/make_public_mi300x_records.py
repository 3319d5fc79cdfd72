#!/usr/bin/env python3
"""Writes data/public/mi300x_gemm.jsonl: published hipBLASLt FP8 GEMM rates on one MI300X as hwsim
measurement records (kind "gemm": out[M,N] = x[M,K] . W[N,K]^T, `dtype` the input type; `seconds` =
2 M N K / the published rate, `tflops` as printed). One record per number; each names its source
(`source`, a key into SOURCES) and its software, `chip` the config it judges ("mi300x"), and `role`
whether it fitted a parameter of configs/mi300x.toml ("fit") or only judges ("judge").
Run: python3 scripts/make_public_mi300x_records.py
"""
import json, os
from public_records import write_public

SOURCES = {
    "AZ": "Azure/AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md, table 'GEMM HipBLASLt' "
          "(read at samuel-bohman/AI-benchmarking-guide commit 3de0c294fd1059a91a2c158712c4a078619d73e8; the fork "
          "keeps Azure's file): Azure ND MI300X v5 (8 x MI300X VF, Xeon 8480C), ROCm as the page states it "
          "('6.8.1'; HIP 6.2.41133), VBIOS 113-MI3SRIOV-001",
}
SOFTWARE = ("hipblaslt-bench (container rocm/vllm-dev:main) run by Benchmarks/AMD/hipBLASLt_runner.sh: "
            "function matmul, transA T, transB N, a/b f8_r (OCP-FNUZ e4m3), c/d f16_r, compute c_f32_r, "
            "iters 2000, cold_iters 100, --flush, rotating 512 (MB of operand copies cycled through), initialization trig_float; the page states 10,000 warmup iterations "
            "and 'random initialization'; TFLOPS = the bench's gflops column / 1000 as GEMMHipblasLt.py parses it")

# AZ, FP8 hipBLASLt, (m, n, k, TFLOPS) as printed. hipblaslt's m is the rows of D (tokens, hwsim's M).
# Left out: 1024^3 (53.13), 2048^3 (427.74) and 1024 x 2145 x 1024 (110.96): all three read 40.2-40.5 us
# a call although their work differs 8x (2.1-17.2 GFLOP), a floor of the harness (with --flush
# and rotating buffers), not of the kernel; no kernel model follows that (the rccl records leave out sizes likewise).
GEMM_FP8_AZ = [
    (4096, 4096, 4096, 955.17), (8192, 8192, 8192, 1159.23), (16384, 16384, 16384, 1015.1),
    (32768, 32768, 32768, 1029.14), (6144, 12288, 12288, 1159.54), (802816, 192, 768, 605.34),
]
# Shapes whose record fitted a parameter (data/measurements/fitted.toml names it): 8192^3 fitted
# power.energy_per_flop.fp8 (the rate the 750 W cap holds an FP8 GEMM at).
FIT = {(8192, 8192, 8192)}


def record(m, n, k, tflops, source, role):
    flops = 2.0 * m * n * k
    return dict(kind="gemm", device="mi300x", chip="mi300x", M=m, N=n, K=k, dtype="fp8", out_dtype="fp16",
                layout="TN", library="hipBLASLt", timing="hipblaslt-bench", tflops=tflops,
                flops=flops, seconds=flops / (tflops * 1e12), source=source,
                software=SOURCES[source] + "; " + SOFTWARE, role=role)


def main():
    out = [record(m, n, k, t, "AZ", "fit" if (m, n, k) in FIT else "judge") for m, n, k, t in GEMM_FP8_AZ]
    write_public("mi300x_gemm.jsonl", out)


if __name__ == "__main__":
    main()
