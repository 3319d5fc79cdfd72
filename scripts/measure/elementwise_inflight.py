#!/usr/bin/env python3
"""Streaming elementwise kernels by element size and by PyTorch's launch path (issue 9: the eager
int8 dequantisation ran at about half the HBM bandwidth hwsim gave it).

For each case: GPU seconds per call (CUDA-graph replays, common.time_graph, operands rotated over
buffer sets so they come from HBM), the bytes it must move, the achieved GB/s, and the kernel
names the profiler saw (vectorized_elementwise_kernel: contiguous operands, vector loads;
unrolled_elementwise_kernel / elementwise_kernel: a cast or a broadcast the vector path refuses).
One JSON object per line on stdout.

    python3 scripts/measure/elementwise_inflight.py > data/measurements/h100_elementwise_inflight.jsonl
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "campaign"))
import common  # noqa: E402

import torch  # noqa: E402

MiB = 1 << 20
DT = {"int8": torch.int8, "bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def kernel_names(fn):
    from torch.profiler import ProfilerActivity, profile
    fn(0)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn(0)
        torch.cuda.synchronize()
    names = []
    for e in p.events():
        if e.device_type.name == "CUDA" and e.name not in names:
            names.append(e.name[:160])
    return names


def make(op, src, dst, rows, cols):
    """fn(i), the bytes it moves, for `op` on [rows, cols] tensors (buffer set i)."""
    elems = rows * cols
    s, d = DT[src], DT[dst]
    es, ed = torch.empty((), dtype=s).element_size(), torch.empty((), dtype=d).element_size()
    per_set = elems * (es + ed) + (elems * es if op == "mul" else 0)
    nb = common.nbuf_for(per_set, 50 * MiB, cap=64)

    def rand(dtype):
        if dtype == torch.int8:
            return torch.randint(-127, 127, (rows, cols), device="cuda", dtype=dtype)
        return torch.randn(rows, cols, device="cuda", dtype=dtype)

    xs = [rand(s) for _ in range(nb)]
    if op == "copy":  # same dtype: clone-like copy into a preallocated output
        outs = [torch.empty(rows, cols, device="cuda", dtype=d) for _ in range(nb)]
        return (lambda i: outs[i].copy_(xs[i])), elems * (es + ed), nb
    if op == "cast":
        return (lambda i: xs[i].to(d)), elems * (es + ed), nb
    if op == "mul":  # same shape, same dtype
        ys = [rand(s) for _ in range(nb)]
        return (lambda i: xs[i] * ys[i]), elems * (2 * es + ed), nb
    if op == "mul_bcast":  # [rows, cols] * [rows, 1]: the per-channel scale of a dequantisation
        sc = [rand(s)[:, :1].contiguous() for _ in range(nb)]
        return (lambda i: xs[i] * sc[i]), elems * (es + ed) + rows * es, nb
    if op == "add_scalar":
        return (lambda i: xs[i] + 1), elems * (es + ed), nb
    if op == "dequant_eager":  # int8 weights -> bf16, times a per-channel bf16 scale (2 kernels)
        sc = [torch.randn(rows, 1, device="cuda", dtype=torch.bfloat16) for _ in range(nb)]
        return (lambda i: xs[i].to(torch.bfloat16) * sc[i]), elems * (1 + 2) + elems * (2 + 2), nb
    raise ValueError(op)


CASES = []
for mb in (16, 64, 256):  # output MiB of a 2-byte result (sizes past, at and below L2)
    cols = 4096
    rows = mb * MiB // (2 * cols)
    for op, src, dst in (("copy", "int8", "int8"), ("copy", "bf16", "bf16"), ("copy", "fp32", "fp32"),
                         ("cast", "int8", "bf16"), ("cast", "int8", "fp32"), ("cast", "bf16", "fp32"),
                         ("cast", "fp32", "bf16"), ("mul", "bf16", "bf16"), ("mul", "fp32", "fp32"),
                         ("mul", "int8", "int8"), ("mul_bcast", "bf16", "bf16"), ("add_scalar", "bf16", "bf16"),
                         ("add_scalar", "int8", "int8"), ("dequant_eager", "int8", "bf16")):
        CASES.append((op, src, dst, rows, cols))


def main():
    props = torch.cuda.get_device_properties(0)
    print(json.dumps({"kind": "device", "name": props.name, "sms": props.multi_processor_count,
                      "torch": torch.__version__}), flush=True)
    common.bump_clocks(1.0)
    for op, src, dst, rows, cols in CASES:
        rec = {"kind": "elementwise_inflight", "op": op, "src": src, "dst": dst, "rows": rows, "cols": cols}
        common.measure_case(rec, lambda: make(op, src, dst, rows, cols), kernel_names)


if __name__ == "__main__":
    main()
