#!/usr/bin/env python3
"""Writes data/public/blackwell.jsonl: published B200 attention and GEMM figures, and published
block-scaled fp8 GEMMs on Hopper, as hwsim measurement records (one record per number), and
data/measurements/h200_blockscaled.jsonl from this project's own H200 run
(scripts/measure/blockscaled_fp8.py; its raw output is read from the path given, default
/work/.device/1/h200_blockscaled.jsonl).

Each record carries `chip` (the hwsim config that runs it), `role` ("fit": it set a parameter,
also listed in data/measurements/fitted.toml; "judge": it set nothing), `source` (URL and where on
the page) and `software` (framework, kernel, precision, timing); `src` is the short key of SRC below (for
`validate --where src=KEY`). `seconds` is derived from the
published TFLOP/s by the benchmark's own FLOP convention where only TFLOP/s is printed (`derived`
says how). Nothing here is invented: numbers are copied from the cited text; a figure read off a
plot, or a setting the source does not state, is marked `approximate` or explained in a note.
Run: python3 scripts/make_public_blackwell_records.py [RAW_H200_JSONL]
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SRC = {
    "TB171": ("https://github.com/meta-pytorch/tritonbench/pull/171 (description, 2025-03-04: 'flash_v2 support is done "
              "on B200', test plan table)",
              "tritonbench `run.py --op flash_attention --metrics tflops --only flash_v2 --batch 8 --n-heads 16 --d-head 128`: "
              "FlashAttention-2 (flash_attn's sm80 kernels on B200), forward, non-causal, bf16 (tritonbench's default dtype), "
              "triton do_bench timing"),
    "FA1589": ("https://github.com/Dao-AILab/flash-attention/issues/1589 (description, 2025-04-13: 'benchmark is low on "
               "B200')",
               "flash_attn 2.7.4.post1, torch 2.8.0.dev20250408+cu128, benchmarks/benchmark_flash_attention.py "
               "(dim 2048: nheads = 2048 / headdim; batch = 16384 / seqlen; torch.utils.benchmark, 30 repeats, mean), "
               "FlashAttention-2 forward, fp16, non-causal"),
    "FA2605": ("https://github.com/Dao-AILab/flash-attention/pull/2605 (description, 'FWD (ms / TFLOPS / MFU% / TBs / BW%)' "
               "table whose MFU column is of 2.25 PF: the B200's dense BF16 peak)",
               "flash-attention benchmark_attn.py as in the PR (dim 2048: nheads = 2048 / hdim; total 32k tokens: batch = "
               "32768 / seqlen), cuDNN SDPA forward (cuDNN frontend), bf16"),
    "AO2427": ("https://github.com/pytorch/ao/pull/2427 (description, 2025-06-23: `bench_matmul.py --recipe nvfp4`, "
               "gpu_name: NVIDIA B200)",
               "torchao benchmarks/float8/bench_matmul.py: torch.mm bf16 and torch._scaled_mm NVFP4 (E2M1, E4M3 scale per 16) "
               "-> bf16, cuBLASLt, M = K = N, time_sec as printed"),
    "TR9044": ("https://github.com/triton-lang/triton/pull/9044 (description, 2025-12-18: '8192 x 8192 x 8192 mxfp8 "
               "example', proton tree: cublas 2849.882 TFLOP/s, kernel nvjet_sm100_qqhsh_128x256_128x6_2x1_2cta_v_bz_"
               "Avec32UE8M0_Bvec32UE8M0_TNT)",
               "cuBLAS 13.1.0.3 MXFP8 (E4M3, UE8M0 scale per 32) -> bf16, torch 2.10.0.dev20251205+cu130, driver 580.105.08, "
               "B200 with unlocked clocks, Triton tutorial 10-block-scaled-matmul.py --format mxfp8 -K 8192, proton timing"),
    "HL2756": ("https://github.com/pytorch/helion/pull/2756 (description, 2026-06-11: 'For reference: torch._scaled_mm "
               "~1860 TFLOP/s' at 4096x4096x4096 fp8 e4m3 -> bf16 on B200)",
               "torch._scaled_mm fp8 e4m3 rowwise scales -> bf16 (cuBLASLt), do_bench; '~' in the source"),
    "DG": ("https://github.com/deepseek-ai/DeepGEMM/blob/55ab91f/README.md ('Normal GEMMs for dense models' table, "
           "commit 55ab91f 2025-03-25: H800 SXM5, NVCC 12.8)",
           "DeepGEMM fp8 GEMM, 1x128 activation scales and 128x128 weight scales (FP32), promoted on CUDA cores, bf16 out; "
           "deep_gemm.bench_kineto (CUPTI kernel time, 30 tests, L2 flushed by an 8 GB memset between)"),
    "FB2546": ("https://github.com/pytorch/FBGEMM/pull/2546 (description, 2024-04-29: 'H100 500W', 'fp8 row gemm only' and "
               "'fp8 block gemm only' lines)",
               "FBGEMM Triton fp8 GEMMs (experimental/gemm/triton_gemm/fp8_gemm.py as in the PR): rowwise scales, or "
               "128x128 block scales promoted in the main loop; the 'gemm only' lines exclude quantisation; H100 at a 500 W "
               "power limit"),
}

H800_NOTE = ("H800 SXM5: the H100 SXM's compute (132 SMs, same clocks and tensor rates) with cut NVLink; judged on "
             "--chip h100 (80 GB HBM3 at 3.35 TB/s as the H100)")


def rec(chip, kind, src, role, **fields):
    url, software = SRC[src]
    r = {"kind": kind, "chip": chip}
    r.update(fields)
    r.update({"role": role, "src": src, "source": url, "software": software})
    return r


def attn(chip, src, role, B, H, S, D, causal, dtype, backend, tflops, **extra):
    flops = 4.0 * B * H * S * S * D / (2 if causal else 1)
    return rec(chip, "attention_backend", src, role, B=B, Hq=H, Hkv=H, S_q=S, S_kv=S, D=D, causal=causal, dtype=dtype,
               backend=backend, flops=flops, tflops=tflops, seconds=flops / (tflops * 1e12),
               derived="seconds = 4*B*H*S^2*D (halved when causal) / TFLOP/s, the benchmark's convention", **extra)


def gemm(chip, src, role, M, N, K, dtype, tflops=None, seconds=None, scale="none", **extra):
    flops = 2.0 * M * N * K
    fields = dict(M=M, N=N, K=K, dtype=dtype, scale=scale, flops=flops)
    if seconds is None:
        fields.update(tflops=tflops, seconds=flops / (tflops * 1e12), derived="seconds = 2*M*N*K / TFLOP/s")
    else:
        fields.update(seconds=seconds, tflops=flops / seconds / 1e12)
    fields.update(extra)
    return rec(chip, "gemm", src, role, **fields)


def public_records():
    out = []
    # FlashAttention-2 on B200, hdim 128 (tritonbench). The S = 4096 point fits gpu.sm.mma_sync_fraction.
    for S, t in [(128, 60.5676), (256, 147.492), (512, 245.259), (1024, 315.111), (2048, 352.104), (4096, 353.912),
                 (8192, 361.591), (16384, 330.587)]:
        out.append(attn("b200", "TB171", "fit" if S == 4096 else "judge", 8, 16, S, 128, False, "bf16",
                        "FLASH_ATTENTION", t))
    # FlashAttention-2 on B200, hdim 64 (flash-attention issue 1589).
    for S, t in [(512, 308.40), (1024, 359.30), (2048, 380.99), (4096, 306.94), (8192, 343.07), (16384, 379.44)]:
        out.append(attn("b200", "FA1589", "judge", 16384 // S, 32, S, 64, False, "fp16", "FLASH_ATTENTION", t))
    # cuDNN on B200 (flash-attention PR 2605, the table against 2.25 PF).
    for causal, rows in [(False, [(1024, 846), (2048, 856), (4096, 885), (8192, 897), (16384, 904)]),
                         (True, [(1024, 501), (2048, 659), (4096, 765), (8192, 838), (16384, 865)])]:
        for S, t in rows:
            out.append(attn("b200", "FA2605", "judge", 32768 // S, 32, S, 64, causal, "bf16", "CUDNN_ATTENTION", t))
    out.append(attn("b200", "FA2605", "judge", 32, 16, 1024, 128, False, "bf16", "CUDNN_ATTENTION", 1156))
    # B200 GEMMs: bf16 and NVFP4 squares (torchao), MXFP8 (Triton PR, cuBLAS), rowwise fp8 (Helion PR).
    for n, t_bf16, t_fp4 in [(1024, 5.08e-6, 5.87e-6), (1536, 7.87e-6, 6.73e-6), (2048, 1.52e-5, 1.02e-5),
                             (3072, 3.84e-5, 1.65e-5), (4096, 9.74e-5, 3.08e-5), (6144, 3.19e-4, 8.44e-5),
                             (8192, 7.74e-4, 2.05e-4)]:
        out.append(gemm("b200", "AO2427", "judge", n, n, n, "bf16", seconds=t_bf16))
        out.append(gemm("b200", "AO2427", "judge", n, n, n, "fp4", seconds=t_fp4))
    out.append(gemm("b200", "TR9044", "judge", 8192, 8192, 8192, "fp8", tflops=2849.882, scale="mx"))
    out.append(gemm("b200", "HL2756", "judge", 4096, 4096, 4096, "fp8", tflops=1860, scale="row", approximate=True))
    # Block-scaled fp8 on Hopper: DeepGEMM (H800 = H100 compute) and FBGEMM (H100 at 500 W).
    for M, N, K, t in [(64, 2112, 7168, 206), (64, 24576, 1536, 289), (64, 32768, 512, 219), (64, 7168, 16384, 336),
                       (64, 4096, 7168, 287), (64, 7168, 2048, 295), (128, 2112, 7168, 352), (128, 24576, 1536, 535),
                       (128, 32768, 512, 358), (128, 7168, 16384, 645), (128, 4096, 7168, 533), (128, 7168, 2048, 510),
                       (4096, 2112, 7168, 1009), (4096, 24576, 1536, 1125), (4096, 32768, 512, 751),
                       (4096, 7168, 16384, 1426), (4096, 4096, 7168, 1265), (4096, 7168, 2048, 1168)]:
        out.append(gemm("h100", "DG", "judge", M, N, K, "fp8", tflops=t, scale="block", device_note=H800_NOTE))
    for (M, N, K), row_ms, block_ms in [((8192, 8192, 8192), 0.977, 1.263), ((65536, 8192, 7168), 7.108, 9.292),
                                        ((65536, 3584, 8192), 3.372, 4.646)]:
        for scale, ms in [("row", row_ms), ("block", block_ms)]:
            out.append(gemm("h100", "FB2546", "judge", M, N, K, "fp8", seconds=ms * 1e-3, scale=scale,
                            set=["power.tdp=500 W"]))
    return out


# The H200 run's records: scale names as the gemm measurement kind reads them, roles. The block
# record at 4096x4096x7168 fits gpu.tile.block_scale_overlap (with its tensor-wise twin as the
# plain rate it is set against); every other record judges.
FIT_H200 = {(4096, 4096, 7168, "block")}
SCALE_NAMES = {"none": "none", "tensor": "tensor", "row": "row", "block_1x128_128x128": "block", "block": "block"}


def h200_records(raw_path):
    out = []
    with open(raw_path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") != "gemm":
                out.append(r)
                continue
            detail = r["scale"]
            r["scale"] = SCALE_NAMES[detail]
            if detail.startswith("block") and "scale_detail" not in r:
                r["scale_detail"] = "x: FP32 scale per 1x128 (M-major), W: FP32 scale per 128x128 (cuBLASLt VEC128/BLK128x128)"
            key = (r["M"], r["N"], r["K"], r["scale"])
            r["role"] = "fit" if key in FIT_H200 else "judge"
            r["source"] = "this project: scripts/measure/blockscaled_fp8.py on the lent H200 (2026-11-29)"
            out.append(r)
    return out


def write(path, records):
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    print(f"{path}: {len(records)} lines")


def main():
    write(os.path.join(ROOT, "data/public/blackwell.jsonl"), public_records())
    raw = sys.argv[1] if len(sys.argv) > 1 else "/work/.device/1/h200_blockscaled.jsonl"
    if os.path.exists(raw):
        write(os.path.join(ROOT, "data/measurements/h200_blockscaled.jsonl"), h200_records(raw))


if __name__ == "__main__":
    main()
