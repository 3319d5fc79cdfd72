#!/usr/bin/env python3
"""Writes data/public/more_chips.jsonl: published measurements on shipped chips that had no public record
(issue 35): GEMM rates on the GeForce RTX 4090 and RTX 5090, AMD Instinct MI325X and GB200 (kind "gemm":
out[M,N] = x[M,K] . W[N,K]^T, `dtype` the input type; `seconds` = 2 M N K / the published rate, or the
published median time where one is printed), and memory streams for the L40S, measured on an L40 (kinds
"fill_fp32", "read_sum_fp32", "copy" over `bytes_each`). One record per printed number; each names
its source (`src`, a key into SOURCES; `source` its address, table and date), its software and timing
method (`software`), the chip file that judges it (`chip`) and its `role` ("judge": it set no
parameter; nothing here is fitted).

Sources:
  ZZC-4090  zzc0721/torch-performance-test-data issue #78 (2025-10-17): "NVIDIA GeForce RTX 4090",
            PyTorch 2.7.0+cu128, Python 3.11.7, on a cloud instance (note "派欧云"); the issue's
            "详细性能数据" block (TFLOPS per precision and square size).
  ZZC-5090  the same repository's issue #124 (2026-01-15): "NVIDIA GeForce RTX 5090", PyTorch
            2.8.0+cu128, Python 3.12.4, cloud instance (note "智算云扉").
            Both run the repository's test.py: torch.mm(a, b) on square torch.randn matrices, 6 warm-up
            calls, then 30 calls back to back timed with time.time() around them and one
            torch.cuda.synchronize() (wall clock per call, launch overlapped); TFLOPS = 2 n^3 x 30 /
            elapsed. The 1024 rows are left out: 30 calls of a few tens of us each, so the first
            launch and the Python timer weigh in the wall clock (a harness floor, as the mi300x set
            leaves out its sub-20-GFLOP rows). The issue's TF32 rows are left out (the script that made them is
            not the one in the repository now; how TF32 was switched on is not stated).
  GFB-4090  xzwgit/gpu-flops-bench nvidia/results/20260811T022856Z/report.csv (commit
            ce1f4c7bacfa5512cce581ab22e5b86e6d4ff0d9; 2026-08-11): 8 x GeForce RTX 4090, driver
            580.105.08, CUDA 13.0 (nvcc V13.0.88), cuBLASLt dense GEMM (nvidia/src/gpu_dense_bench.cu);
            report.csv, the rows of mode "isolated" on device 0: every size the tool ran per
            precision (three squares each), its median time in ms and its input/accumulator/output
            types (FP16 and FP8 accumulate in FP32).
  ROCM-325  ROCm/legacy-rocm-build issue #5923 (2026-02-02; the same text as ROCm/gpu-operator
            issue #419): one AMD Instinct MI325X (host EPYC 9965, Ubuntu 22.04), PyTorch on ROCm
            (version not printed): torch.matmul of 16384^3 float32 torch.randn matrices, 10 warm-up
            calls, 20 timed calls between time.time() and torch.cuda.synchronize(): 130.6 TFLOPS.
            Its float64 figure (82.4 TFLOPS) is left out: hwsim models no fp64 GEMM.
  AZ-GB200  Azure/AI-benchmarking-guide Azure_Results/ND_GB200_v6_results.md (commit
            2a370be6de9586d365feed77e014a73f25198f4d): Azure ND GB200 v6 (GB200 185GB, Neoverse-V2 host),
            CUDA 12.8, driver 570.133.20, VBIOS 97.00.82.00.30; tables "GEMM CuBLASLt (FP8)" and
            "GEMM CuBLASLt (FP4)", TFLOPS per m, n, k. Made by Benchmarks/NVIDIA/GEMMCublasLt.py:
            superbenchmark's cublaslt_gemm (gitaumark fork) with -b 1 -i 1000 -w 10000 -t fp8e4m3 /
            fp4e2m1. The FP8 1024 x 2145 x 1024 row is left out: hwsim refuses an fp8 GEMM whose N
            is not a multiple of 16 (cuBLASLt's fp8 kernels need 16-byte aligned rows), so the tool
            must have padded or used another path; the FP4 rows are NVFP4 (E2M1 with block scales),
            hwsim's dtype fp4 as data/public/blackwell.jsonl spells it.
  MAMF      stas00/ml-engineering compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS
            comparison table" (commit 744d01e18b79512572f64a6bbd8b5f4a725203a7; the MI325X row since
            commit 488e8933, 2025-01-05; the GB200 rows since 68cd2e59, 2025-09-17): the best shape's
            mean TFLOPS of compute/accelerator/benchmarks/mamf-finder.py (torch.mm(A, B, out=C) in
            bf16, torch._scaled_mm in float8_e4m3fn; CUDA/HIP events per call, a 256 MiB buffer zeroed
            between calls to clear the caches; mean of 100 calls after 50 warm-up calls). The best of a
            shape search, so its noise is biased upwards (the best shape is the luckiest too). Only
            the chips without other public records are taken (MI325X bf16; GB200 bf16 and fp8).
  RRZE-L40  RRZE-HPC/gpu-benches gpu-stream/l40.txt (commit 1038c5d0d0f48cfe9912930d34eb2d8a31b72b9b; the
            file last changed 2025-02-07) with gpu-stream/main.cu: an NVIDIA L40, not an L40S, as a
            stand-in for memory-bound kernels only: both are AD102 with 142 SMs, 96 MB of L2 and 48 GB
            of GDDR6 at 864 GB/s (they differ in tensor rates and a 2490 vs 2520 MHz boost, which these
            kernels do not use). The row at 100 % occupancy (768-thread blocks, 2 per SM): init (a
            write-only stream, hwsim's fill) 847 GB/s, read (a read-only stream) 845 GB/s, scale
            (A = s B, a copy: 2 streams) 776 GB/s; buffers of 256 Mi + 2 doubles (2 GiB); GB/s =
            streams x 2 GiB / the median of 31 event-timed launches. configs/l40s.toml already takes
            this repository's L40 pointer chase for its latencies.
Run: python3 scripts/make_public_more_chips_records.py
"""
from public_records import write_public

SOURCES = {
    "ZZC-4090": "https://github.com/zzc0721/torch-performance-test-data/issues/78 (2025-10-17; '详细性能数据' "
                "block, TFLOPS per precision and square size; device 'NVIDIA GeForce RTX 4090')",
    "ZZC-5090": "https://github.com/zzc0721/torch-performance-test-data/issues/124 (2026-01-15; '详细性能数据' "
                "block, TFLOPS per precision and square size; device 'NVIDIA GeForce RTX 5090')",
    "GFB-4090": "https://github.com/xzwgit/gpu-flops-bench/blob/ce1f4c7bacfa5512cce581ab22e5b86e6d4ff0d9/nvidia/"
                "results/20260811T022856Z/report.csv (2026-08-11; rows mode=isolated, device_id=0, gpu_name 'NVIDIA "
                "GeForce RTX 4090'; columns m, n, k, median_ms, throughput; the same run's report.md prints the best "
                "size per precision)",
    "ROCM-325": "https://github.com/ROCm/legacy-rocm-build/issues/5923 (2026-02-02, description; also "
                "ROCm/gpu-operator issue #419): 'GEMM Throughput' of the issue's script on one AMD Instinct MI325X",
    "AZ-GB200": "https://github.com/Azure/AI-benchmarking-guide/blob/2a370be6de9586d365feed77e014a73f25198f4d/"
                "Azure_Results/ND_GB200_v6_results.md (tables 'GEMM CuBLASLt (FP8)' and 'GEMM CuBLASLt (FP4)', "
                "ND GB200 v6 TFLOPS per m, n, k)",
    "MAMF": "https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/compute/"
            "accelerator/README.md ('Maximum Achievable Matmul FLOPS comparison table', BF16 and FP8 tables: MAMF "
            "TFLOPS at the best shape MxNxK)",
    "RRZE-L40": "https://github.com/RRZE-HPC/gpu-benches/blob/1038c5d0d0f48cfe9912930d34eb2d8a31b72b9b/gpu-stream/"
                "l40.txt (row 'block 768, threads 218112, 2 blocks/SM, occ 100.0%'; columns init, read, scale GB/s; "
                "device NVIDIA L40 as a stand-in for the L40S's memory system)",
}
SOFTWARE = {
    "ZZC-4090": "PyTorch 2.7.0+cu128 (cuBLAS), Python 3.11.7; the repository's test.py: torch.mm(a, b), a and b "
                "torch.randn(n, n) of the dtype, 6 warm-up calls, 30 calls back to back between time.time() and "
                "torch.cuda.synchronize() (wall clock, launches overlapped); TFLOPS = 2 n^3 x 30 / elapsed",
    "ZZC-5090": "PyTorch 2.8.0+cu128 (cuBLAS), Python 3.12.4; the repository's test.py: torch.mm(a, b), a and b "
                "torch.randn(n, n) of the dtype, 6 warm-up calls, 30 calls back to back between time.time() and "
                "torch.cuda.synchronize() (wall clock, launches overlapped); TFLOPS = 2 n^3 x 30 / elapsed",
    "GFB-4090": "gpu-flops-bench nvidia/src/gpu_dense_bench.cu: cuBLASLt dense GEMM (no sparsity), driver "
                "580.105.08, CUDA 13.0; cuBLASLt's heuristic algorithm per shape (the csv's algorithm column), "
                "per-tensor scale; the median of the timed calls per size; fp8 is E4M3 with FP32 accumulate and "
                "FP16 output, fp16/bf16 accumulate in FP32",
    "ROCM-325": "PyTorch on ROCm (version not printed; hipBLASLt/rocBLAS as PyTorch picks), torch.matmul(A, B), "
                "A and B torch.randn(16384, 16384, float32), 10 warm-up calls, 20 calls between time.time() and "
                "torch.cuda.synchronize(); TFLOPS = 2 M N K x 20 / elapsed",
    "AZ-GB200": "superbenchmark cublaslt_gemm (github.com/gitaumark/superbenchmark, built by the guide's "
                "Benchmarks/NVIDIA/GEMMCublasLt.py) -b 1 -i 1000 -w 10000 -t fp8e4m3 (E4M3 inputs) or fp4e2m1 "
                "(NVFP4: E2M1 with block scales); cuBLASLt, CUDA 12.8, driver 570.133.20, PyTorch 2.6.0 on the "
                "VM; random initialization, 10,000 warm-up iterations, the tool's mean time of 1,000 iterations "
                "(TFLOPS = 2 m n k / time)",
    "MAMF": "mamf-finder.py (stas00/ml-engineering compute/accelerator/benchmarks): torch.mm(A, B, out=C) bf16 or "
            "torch._scaled_mm(A, B, scale, scale, out=C) float8_e4m3fn; events around each call, a 256 MiB buffer "
            "zeroed between calls (cache reset); mean of 100 calls after 50 warm-up calls; the best shape of the "
            "search as the table prints it",
    "RRZE-L40": "gpu-benches gpu-stream/main.cu (CUDA): double-precision stream kernels over 2 GiB buffers, 768-thread "
                "blocks at 2 per SM (shared-memory spoiler), cudaEvent-timed launches, median of 31; GB/s = streams x "
                "2 GiB / time",
}
CHIP = {"ZZC-4090": "rtx4090", "ZZC-5090": "rtx5090", "GFB-4090": "rtx4090", "ROCM-325": "mi325x",
        "AZ-GB200": "gb200", "MAMF": None, "RRZE-L40": "l40s"}
DEVICE = {"rtx4090": "geforce_rtx_4090", "rtx5090": "geforce_rtx_5090", "mi325x": "mi325x",
          "gb200": "gb200_185gb"}

# ZZC-*: (dtype, n, TFLOPS) as printed, n = 2048-10240 (1024 left out, see above).
ZZC_4090 = [
    ("fp32", 2048, 53.84), ("fp32", 4096, 53.02), ("fp32", 8192, 53.41), ("fp32", 10240, 51.43),
    ("fp16", 2048, 159.38), ("fp16", 4096, 168.38), ("fp16", 8192, 155.50), ("fp16", 10240, 156.88),
    ("bf16", 2048, 164.81), ("bf16", 4096, 151.50), ("bf16", 8192, 160.17), ("bf16", 10240, 158.54),
]
ZZC_5090 = [
    ("fp32", 2048, 69.83), ("fp32", 4096, 64.50), ("fp32", 8192, 66.91), ("fp32", 10240, 65.46),
    ("fp16", 2048, 173.86), ("fp16", 4096, 217.99), ("fp16", 8192, 223.98), ("fp16", 10240, 220.03),
    ("bf16", 2048, 171.53), ("bf16", 4096, 182.19), ("bf16", 8192, 234.66), ("bf16", 10240, 236.99),
]
# GFB-4090, report.csv rows "isolated", device_id 0: (dtype, m = n = k, median_ms, throughput) as printed.
# Input/accumulator/output types as the csv states them: int8 INT8/INT32/INT32 (TN); fp8 E4M3/FP32/FP16
# (TN); fp16 FP16/FP32/FP16, bf16 BF16/FP32/BF16, tf32 FP32/FP32/FP32, fp32 FP32/FP32/FP32 (NN).
GFB_4090 = [
    ("int8", 4096, 0.260320, 527.961545), ("int8", 8192, 1.803200, 609.755781),
    ("int8", 16384, 13.301760, 661.272885),
    ("fp8", 4096, 0.412544, 333.149796), ("fp8", 8192, 3.202048, 343.377615),
    ("fp8", 16384, 25.474079, 345.295819),
    ("fp16", 4096, 0.791552, 173.632247), ("fp16", 8192, 6.388960, 172.095560),
    ("fp16", 16384, 51.802113, 169.801821),
    ("bf16", 4096, 0.788480, 174.308741), ("bf16", 8192, 6.519808, 168.641724),
    ("bf16", 16384, 52.161343, 168.632412),
    ("tf32", 4096, 1.588992, 86.494428), ("tf32", 8192, 12.533760, 87.724005),
    ("tf32", 12288, 42.186752, 87.962489),
    ("fp32", 4096, 2.587648, 53.113468), ("fp32", 8192, 19.605503, 56.081786),
    ("fp32", 12288, 67.916832, 54.638175),
]
# ROCM-325: (dtype, n, TFLOPS).
ROCM_325 = [("fp32", 16384, 130.6)]
# AZ-GB200: (dtype, m, n, k, TFLOPS) as printed (fp8 1024 x 2145 x 1024 left out, see above).
AZ_GB200 = [
    ("fp8", 1024, 1024, 1024, 489.2), ("fp8", 2048, 2048, 2048, 2243.6), ("fp8", 4096, 4096, 4096, 2834.6),
    ("fp8", 8192, 8192, 8192, 2876.6), ("fp8", 16384, 16384, 16384, 2906.9),
    ("fp8", 32768, 32768, 32768, 2825.6), ("fp8", 6144, 12288, 12288, 2895.6), ("fp8", 802816, 192, 768, 1459.5),
    ("fp4", 1024, 1024, 1024, 287.2), ("fp4", 2048, 2048, 2048, 1677.7), ("fp4", 4096, 4096, 4096, 5177.3),
    ("fp4", 8192, 8192, 8192, 7535.6), ("fp4", 16384, 16384, 16384, 7627.6),
    ("fp4", 32768, 32768, 32768, 7487.2), ("fp4", 1024, 2145, 1024, 549.0), ("fp4", 802816, 192, 768, 2216.7),
]
# RRZE-L40, the 100 % occupancy row: (hwsim kind, gpu-stream kernel, streams, GB/s) as printed.
RRZE_L40_BYTES = (256 * 1024 * 1024 + 2) * 8
RRZE_L40 = [("fill_fp32", "init", 1, 847), ("read_sum_fp32", "read", 1, 845), ("copy", "scale", 2, 776)]
# MAMF: (chip, dtype, m, n, k, TFLOPS, the row's torch version and notes) as printed.
MAMF = [
    ("mi325x", "bf16", 13312, 10240, 8192, 784.9, "torch 2.6.0+6.2.4 (ROCm 6.2.4), PYTORCH_TUNABLEOP_ENABLED=1, 1000W"),
    ("gb200", "bf16", 4096, 9728, 2048, 1822.0, "torch 2.10.0.dev20250916+cu130"),
    ("gb200", "fp8", 19456, 5120, 1536, 3615.6, "torch 2.10.0.dev20250916+cu130"),
]


def record(src, dtype, n, seconds, tflops, derived, mnk=None, chip=None):
    chip = chip or CHIP[src]
    m, n, k = mnk or (n, n, n)
    return dict(kind="gemm", chip=chip, device=DEVICE[chip], M=m, N=n, K=k, dtype=dtype, seconds=seconds,
                tflops=tflops, flops=2.0 * m * n * k, role="judge", src=src, source=SOURCES[src],
                software=SOFTWARE[src] + "; " + derived)


def records():
    out = []
    for src, rows in (("ZZC-4090", ZZC_4090), ("ZZC-5090", ZZC_5090), ("ROCM-325", ROCM_325)):
        for dtype, n, tflops in rows:
            out.append(record(src, dtype, n, 2.0 * n ** 3 / (tflops * 1e12), tflops,
                              "seconds = 2 n^3 / (printed TFLOPS)"))
    for dtype, n, ms, tflops in GFB_4090:
        out.append(record("GFB-4090", dtype, n, ms / 1e3, tflops, "seconds = printed median ms / 1000"))
    for dtype, m, n, k, tflops in AZ_GB200:
        out.append(record("AZ-GB200", dtype, n, 2.0 * m * n * k / (tflops * 1e12), tflops,
                          "seconds = 2 m n k / (printed TFLOPS)", (m, n, k)))
    for chip, dtype, m, n, k, tflops, notes in MAMF:
        r = record("MAMF", dtype, n, 2.0 * m * n * k / (tflops * 1e12), tflops,
                   "seconds = 2 m n k / (printed MAMF TFLOPS)", (m, n, k), chip)
        r["software"] += "; " + notes
        out.append(r)
    for kind, kernel, streams, gbps in RRZE_L40:
        out.append(dict(kind=kind, chip="l40s", device="l40", bytes_each=RRZE_L40_BYTES, kernel=kernel,
                        seconds=streams * RRZE_L40_BYTES / (gbps * 1e9), gbps=gbps, role="judge", src="RRZE-L40",
                        source=SOURCES["RRZE-L40"],
                        software=SOFTWARE["RRZE-L40"] + "; seconds = streams x bytes_each / (printed GB/s)"))
    return out


def main():
    write_public("more_chips.jsonl", records())


if __name__ == "__main__":
    main()
