#!/usr/bin/env python3
"""Block-scaled FP8 GEMMs against plain FP8 and BF16 at the same shapes, on one Hopper GPU.

What it answers: how much a per-block scale (1x128 activations, 128x128 or 1x128 weights, the
DeepSeek-V3 / DeepGEMM recipe) costs a GEMM on Hopper, where wgmma has no block scale and the
kernel multiplies each k-block's partial sums by their scales on the CUDA cores (cuBLASLt 12.9+
"VEC128"/"BLK128x128" scale modes, reached through torch._scaled_mm), against the same GEMM with
one scale per tensor (applied once in the epilogue) or one per row/column (epilogue too).

Method (docs: data/measurements/README.md, METHOD.md habits):
  - the software on the machine is printed first (torch, CUDA, cuBLAS, device, clocks);
  - each scaling mode is checked once against an fp32 reference of the dequantised operands
    (relative Frobenius error; random normal data, never zeros) before it is timed;
  - timing: CUDA events around `iters` back-to-back calls cycling over enough operand sets to
    exceed 4x the L2 (so each call reads from HBM as a model sees it), 7 repetitions, median;
  - one JSON record per (shape, mode) to $OUT/h200_blockscaled.jsonl, kind "gemm" with a
    `scale` field, plus a device record; a short table last.
Run: python3 scripts/measure/blockscaled_fp8.py   (OUT=folder for the JSONL; default .)
"""
import json
import os
import statistics
import subprocess
import sys
import time

import torch

OUT = os.environ.get("OUT", ".")
DEV = torch.device("cuda")
F8 = torch.float8_e4m3fn
BLOCK = 128
SHAPES = [  # (M, N, K): squares, DeepGEMM README's dense shapes (M = 4096 and 128), a tall one
    (4096, 4096, 4096), (8192, 8192, 8192), (2048, 8192, 8192), (16384, 8192, 4096),
    (4096, 2112, 7168), (4096, 24576, 1536), (4096, 32768, 512), (4096, 7168, 16384),
    (4096, 4096, 7168), (4096, 7168, 2048),
    (128, 7168, 16384), (128, 4096, 7168), (128, 24576, 1536),
]


def smi(query):
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception as e:  # noqa: BLE001 - report, never fail on a probe
        return f"n/a ({e})"


def make_scales(mode, M, N, K):
    """Scales for x[M,K] and W[N,K] in the layout torch._scaled_mm expects (W passed as W.t())."""
    kb, nb = K // BLOCK, N // BLOCK
    r = lambda *s: (torch.rand(*s, device=DEV) * 0.5 + 0.75)  # noqa: E731 - positive, near 1
    if mode == "tensor":
        return r(()).float(), r(()).float()
    if mode == "row":
        return r(M, 1), r(1, N)
    if mode == "block_1x128_128x128":  # x: one scale per row per 128 of K (M-major); W: per 128x128
        sa = r(M, kb).t().contiguous().t()
        sb = r(nb, kb).t()  # shape (kb, nb), the transpose of W's (nb, kb) scales
        return sa, sb
    if mode == "block_1x128_1x128":
        sa = r(M, kb).t().contiguous().t()
        sb = r(N, kb).t()  # (kb, N): one scale per output column per 128 of K
        return sa, sb
    raise ValueError(mode)


def dequant(x, s, block_rows, block_k):
    """x (fp8 [R, K]) times its scales (per (block_rows x block_k) block), in fp32."""
    xf = x.float()
    if s.dim() == 0:
        return xf * s
    s = s.float()
    if s.shape == (x.shape[0], 1):
        return xf * s
    s_full = s.repeat_interleave(block_rows, 0)[: x.shape[0]].repeat_interleave(block_k, 1)[:, : x.shape[1]]
    return xf * s_full


def reference(mode, x, w, sa, sb):
    if mode == "tensor":
        return (x.float() * sa) @ (w.float() * sb).t()
    if mode == "row":
        return (x.float() * sa) @ (w.float() * sb.t()).t()
    xa = dequant(x, sa, 1, BLOCK)
    if mode == "block_1x128_128x128":
        wb = dequant(w, sb.t(), BLOCK, BLOCK)
    else:
        wb = dequant(w, sb.t(), 1, BLOCK)
    return xa @ wb.t()


def call(mode, x, w, sa, sb):
    if mode == "bf16":
        return torch.mm(x, w.t())
    return torch._scaled_mm(x, w.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)


def operands(mode, M, N, K, sets):
    out = []
    for _ in range(sets):
        if mode == "bf16":
            x = torch.randn(M, K, device=DEV, dtype=torch.bfloat16)
            w = torch.randn(N, K, device=DEV, dtype=torch.bfloat16)
            out.append((x, w, None, None))
        else:
            x = torch.randn(M, K, device=DEV).to(F8)
            w = torch.randn(N, K, device=DEV).to(F8)
            sa, sb = make_scales(mode, M, N, K)
            out.append((x, w, sa, sb))
    return out


def time_case(mode, M, N, K, l2_bytes):
    esize = 2 if mode == "bf16" else 1
    per_set = (M * K + N * K) * esize + M * N * 2
    sets = max(2, min(16, int(4 * l2_bytes // per_set) + 1))
    ops = operands(mode, M, N, K, sets)
    x, w, sa, sb = ops[0]
    y = call(mode, x, w, sa, sb)
    err = None
    if mode != "bf16":
        ref = reference(mode, x, w, sa, sb)
        err = float((y.float() - ref).norm() / ref.norm())
        if not (err < 2e-2):
            raise RuntimeError(f"{mode} {M}x{N}x{K}: relative error {err:.3g} against the fp32 reference")
    flops = 2.0 * M * N * K
    iters = max(sets, int(min(200, max(10, 2e13 / flops))))
    for i in range(3):  # warm up (cuBLASLt heuristics, clocks)
        for j in range(sets):
            call(mode, *ops[j])
    torch.cuda.synchronize()
    samples = []
    for _ in range(7):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(iters):
            call(mode, *ops[i % sets])
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / 1e3 / iters)
    del ops
    torch.cuda.empty_cache()
    return statistics.median(samples), min(samples), max(samples), iters, sets, err


def main():
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 60 << 20)
    device = {"kind": "device", "name": props.name, "sms": props.multi_processor_count, "l2_bytes": l2,
              "torch": torch.__version__, "cuda": torch.version.cuda,
              "cublas": str(torch._C._cuda_getCompiledVersion()) if hasattr(torch._C, "_cuda_getCompiledVersion") else "n/a",
              "smi": smi("name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu")}
    print(json.dumps(device), flush=True)
    modes = ["bf16", "tensor", "row", "block_1x128_128x128", "block_1x128_1x128"]
    supported = {}
    for mode in modes[1:]:  # probe once at a small shape
        try:
            time_case(mode, 256, 256, 512, 0)
            supported[mode] = "ok"
        except Exception as e:  # noqa: BLE001
            supported[mode] = f"{type(e).__name__}: {str(e)[:200]}"
    print(json.dumps({"kind": "probe", "modes": supported}), flush=True)
    recs = [device, {"kind": "probe", "modes": supported}]
    t0 = time.time()
    for (M, N, K) in SHAPES:
        for mode in modes:
            if mode != "bf16" and supported.get(mode) != "ok":
                continue
            if time.time() - t0 > 170:
                print("time budget reached; stopping", flush=True)
                break
            try:
                med, tmin, tmax, iters, sets, err = time_case(mode, M, N, K, l2)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"kind": "error", "mode": mode, "M": M, "N": N, "K": K, "error": str(e)[:300]}), flush=True)
                continue
            rec = {"kind": "gemm", "device": "h200_sxm", "chip": "h200", "M": M, "N": N, "K": K,
                   "dtype": "bf16" if mode == "bf16" else "fp8", "scale": "none" if mode == "bf16" else mode,
                   "seconds": med, "tmin": tmin, "tmax": tmax, "iters": iters, "reps": 7, "buffers": sets,
                   "tflops": 2.0 * M * N * K / med / 1e12, "rel_err": err,
                   "software": f"torch {torch.__version__} (CUDA {torch.version.cuda}): "
                               + ("torch.mm" if mode == "bf16" else "torch._scaled_mm, out bf16")}
            recs.append(rec)
            print(json.dumps(rec), flush=True)
    recs.append({"kind": "clocks_after", "smi": smi("clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active")})
    with open(os.path.join(OUT, "h200_blockscaled.jsonl"), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    print(f"\n{'M':>6} {'N':>6} {'K':>6} " + " ".join(f"{m[:18]:>19}" for m in modes))
    by = {(r["M"], r["N"], r["K"], r["scale"]): r["tflops"] for r in recs if r.get("kind") == "gemm"}
    for (M, N, K) in SHAPES:
        row = [by.get((M, N, K, "none" if m == "bf16" else m)) for m in modes]
        print(f"{M:>6} {N:>6} {K:>6} " + " ".join(f"{v:19.1f}" if v else f"{'-':>19}" for v in row))


if __name__ == "__main__":
    sys.exit(main())
