#!/usr/bin/env python3
"""Llama-3-8B's linear layers as a serving step runs them, over the token count M: which cuBLAS kernel
PyTorch picks at each M, and how long it takes (issue 36: a mixed serving step's projections run at
every M from 1 to the token budget, and the kernel cuBLAS picks changes with M; TTFT at concurrency 4
is 19.6 % fast where the step's M = 448).

For each (projection, M): F.linear(x[M,K], W[N,K]) in bf16, the weights rotated past the L2
(common.nbuf_for) so they come from HBM as in a model step; GPU seconds per call from CUDA-graph
replays (common.time_graph); the kernels one call ran, from the profiler (kernel_shapes_probe.kernels).
One JSON line per case on stdout, kind "gemm" (hwsim validate reads it), after one line of software.

    python3 scripts/measure/gemm_m_sweep.py > data/measurements/h200_gemm_m_sweep.jsonl
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "campaign"))
sys.path.insert(0, HERE)
import common  # noqa: E402
from kernel_shapes_probe import kernels  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

MiB = 1 << 20
L2 = 50 * MiB  # H100/H200
PROJECTIONS = {"qkv": (6144, 4096), "o": (4096, 4096), "gate_up": (28672, 4096), "down": (4096, 14336),
               "lm_head": (128256, 4096)}
M_VALUES = [1, 2, 4, 8, 16] + list(range(32, 513, 32)) + list(range(640, 2049, 128))


def build(m, n, k):
    nb = common.nbuf_for(n * k * 2, L2, cap=64)
    ws = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * 0.02 for _ in range(nb)]
    xs = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16) for _ in range(nb)]
    return (lambda i: F.linear(xs[i], ws[i])), 2 * (n * k + m * k + m * n), nb


def main():
    software = f"torch {torch.__version__} (CUDA {torch.version.cuda}): F.linear bf16, cuBLAS's choice"
    print(json.dumps({"kind": "device", "device": torch.cuda.get_device_name(), "software": software,
                      "packages": common.package_versions()}), flush=True)
    common.bump_clocks(2.0)
    for label, (n, k) in PROJECTIONS.items():
        for m in M_VALUES:
            rec = {"kind": "gemm", "device": "h200_sxm", "chip": "h200", "label": f"llama3_8b_{label}", "M": m,
                   "N": n, "K": k, "dtype": "bf16", "layout": "x@W^T", "flops": 2.0 * m * n * k,
                   "software": software, "role": "judge",
                   "source": "this project: scripts/measure/gemm_m_sweep.py on the lent H200 (2026-11-29)"}
            common.measure_case(rec, lambda: build(m, n, k), kernels)


if __name__ == "__main__":
    main()
