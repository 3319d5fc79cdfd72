#!/usr/bin/env python3
"""Which kernels PyTorch launches, with their grids, and how long they take, for the elementwise and
int8 GEMM cases where hwsim missed (issue 9): fused softmax by row width (the register, shared-memory
and three-pass regimes), `.t().contiguous()` transposes from L2 and from HBM, and torch._int_mm by M.

For each case: GPU seconds per call (CUDA-graph replays, common.time_graph; `hot` cases reuse one
buffer set so it stays in L2, the others rotate sets past L2 as the fidelity campaign did), and the
kernels one call ran, from the profiler's Chrome trace: name, grid, block, registers per thread,
shared memory, duration. One JSON object per line on stdout.

    python3 scripts/measure/kernel_shapes_probe.py > data/measurements/h100_kernel_shapes.jsonl
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "campaign"))
import common  # noqa: E402

import torch  # noqa: E402

MiB = 1 << 20
DT = {"bf16": torch.bfloat16, "fp32": torch.float32, "int8": torch.int8}


def kernels(fn):
    """The CUDA kernels of one fn(0) call: name, grid, block, registers, shared memory, microseconds."""
    from torch.profiler import ProfilerActivity, profile
    fn(0)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn(0)
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    p.export_chrome_trace(path)
    with open(path) as f:
        trace = json.load(f)
    os.unlink(path)
    out = []
    for e in trace.get("traceEvents", []):
        if e.get("cat") != "kernel":
            continue
        a = e.get("args", {})
        out.append({"name": e.get("name", "")[:200], "grid": a.get("grid"), "block": a.get("block"),
                    "regs": a.get("registers per thread"), "smem": a.get("shared memory"),
                    "us": e.get("dur")})
    return out


def softmax_case(rows, cols, dt):
    per_set = rows * cols * DT[dt].itemsize * 2
    nb = common.nbuf_for(per_set, 50 * MiB, cap=64)
    xs = [torch.randn(rows, cols, device="cuda", dtype=DT[dt]) for _ in range(nb)]
    return (lambda i: torch.softmax(xs[i], dim=-1)), per_set, nb


def transpose_case(n, dt, hot):
    per_set = n * n * DT[dt].itemsize * 2
    nb = 1 if hot else common.nbuf_for(per_set, 50 * MiB, cap=64)
    xs = [torch.randn(n, n, device="cuda", dtype=DT[dt]) for _ in range(nb)]
    outs = [torch.empty(n, n, device="cuda", dtype=DT[dt]) for _ in range(nb)]
    return (lambda i: outs[i].copy_(xs[i].t())), per_set, nb


def int_mm_case(m, n, k):
    nb = common.nbuf_for(n * k, 50 * MiB, cap=64)
    ws = [torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8) for _ in range(nb)]
    xs = [torch.randint(-127, 128, (m, k), device="cuda", dtype=torch.int8) for _ in range(nb)]
    return (lambda i: torch._int_mm(xs[i], ws[i].t())), n * k + m * k + 4 * m * n, nb


CASES = []
for dt in ("bf16", "fp32"):
    for rows, cols in ((32768, 1024), (16384, 2048), (4096, 4096), (8192, 4096), (4096, 8192), (2048, 16384),
                       (1024, 32768), (256, 65536), (1, 32768), (1, 4096), (8192, 8192)):
        CASES.append(("softmax", dict(rows=rows, cols=cols, dtype=dt)))
for dt in ("bf16", "fp32"):
    for n in (1024, 2048, 4096, 8192):
        for hot in (True, False):
            CASES.append(("transpose", dict(n=n, dtype=dt, hot=hot)))
for n, k in ((4096, 4096), (14336, 4096)):
    for m in (32, 64, 128, 192, 256, 384, 512, 1024):
        CASES.append(("int_mm", dict(M=m, N=n, K=k)))


def build(kind, p):
    if kind == "softmax":
        return softmax_case(p["rows"], p["cols"], p["dtype"])
    if kind == "transpose":
        return transpose_case(p["n"], p["dtype"], p["hot"])
    return int_mm_case(p["M"], p["N"], p["K"])


def main():
    props = torch.cuda.get_device_properties(0)
    print(json.dumps({"kind": "device", "name": props.name, "sms": props.multi_processor_count,
                      "torch": torch.__version__, "cuda": torch.version.cuda}), flush=True)
    common.bump_clocks(1.0)
    for kind, params in CASES:
        common.measure_case({"kind": "kernel_shapes", "case": kind, **params}, lambda: build(kind, params), kernels)


if __name__ == "__main__":
    main()
