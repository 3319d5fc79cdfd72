"""Times the Triton lessons (workloads/kernels/lessons/triton_kernels.py) like lesson_runner.h:
inputs from hwsim's buffer generator, one checked launch, then 3 warm-ups, one timed launch to size
K (~20 ms of work, 20..2000), K launches captured in a CUDA graph, 7 timed replays (CUDA events);
seconds = median of replay / K. Writes each kernel's PTX to PTXDIR/triton_<name>.ptx and prints
one JSON line per case.

usage: python3 measure_triton.py PTXDIR
"""
import json
import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "workloads", "kernels", "lessons"))
import triton_kernels as tk  # noqa: E402

M64 = (1 << 64) - 1


def splitmix(x):
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(M64)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def hwsim_random_f32(count, seed):
    with np.errstate(over="ignore"):
        i = np.arange(count, dtype=np.uint64)
        r = splitmix(np.uint64((seed * 0x100000001B3) & M64) ^ splitmix(i))
    return ((r >> np.uint64(11)).astype(np.float64) * 2.0**-53 * 2.0 - 1.0).astype(np.float32)


def time_graph(launch):
    for _ in range(3):
        launch()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    launch()
    b.record()
    b.synchronize()
    single = a.elapsed_time(b) * 1e-3
    K = int(min(2000, max(20, math.ceil(0.02 / max(single, 1e-7)))))
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.stream(s):
        with torch.cuda.graph(g, stream=s):
            for _ in range(K):
                launch()
    g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(7):
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) * 1e-3 / K)
    ts.sort()
    return ts[len(ts) // 2], ts[0], ts[-1], K, single


def record(name, kernel, compiled, grid, block, args, secs, check, err, min_bytes, ptxdir):
    ptx = compiled.asm["ptx"]
    with open(os.path.join(ptxdir, f"triton_{name}.ptx"), "w") as f:
        f.write(ptx)
    entry = [l.split()[2].split("(")[0] for l in ptx.splitlines() if l.strip().startswith(".visible .entry")]
    shared = int(getattr(compiled.metadata, "shared", 0))
    med, mn, mx, K, single = secs
    cmd = (f"hwsim --chip h200 --set gpu.core.model=warp --kernel workloads/kernels/lessons/ptx/triton_{name}.ptx "
           f"--entry {entry[0] if entry else kernel} --grid {grid} --block {block}"
           + (f" --dynamic-shared {shared}" if shared else "") + "".join(f" --arg {a}" for a in args))
    print(json.dumps({
        "kind": "lesson", "device": torch.cuda.get_device_name(0), "lesson": "triton_kernels", "kernel": kernel,
        "speedup_group": f"triton_{name}", "grid": [grid, 1, 1], "block": [block, 1, 1], "dynamic_shared": shared,
        "args": args, "hwsim_command": cmd, "seconds": med, "tmin": mn, "tmax": mx, "reps": 7,
        "launches_per_graph": K, "single_launch_seconds": single, "check": "ok" if check else "mismatch",
        "max_err": err, "min_bytes": min_bytes, "gbps": min_bytes / med * 1e-9,
        "ptx": f"workloads/kernels/lessons/ptx/triton_{name}.ptx", "ptx_entry": entry[0] if entry else None,
        "triton": __import__("triton").__version__,
        "note": "Triton appends hidden pointer parameters (scratch) after the listed ones; args cover the kernel's own",
    }), flush=True)


def main():
    ptxdir = sys.argv[1]
    os.makedirs(ptxdir, exist_ok=True)
    dev = torch.device("cuda")
    # vector add, 16 Mi floats (3 x 64 MiB, past the 60 MB L2), BLOCK 1024, 4 warps
    n = 1 << 24
    x = torch.from_numpy(hwsim_random_f32(n, 1)).to(dev)
    y = torch.from_numpy(hwsim_random_f32(n, 2)).to(dev)
    out = torch.zeros(n, device=dev)
    BLOCK = 1024
    grid = (n + BLOCK - 1) // BLOCK
    ck = tk.vector_add_kernel[(grid,)](x, y, out, n, BLOCK=BLOCK, num_warps=4)
    torch.cuda.synchronize()
    err = (out - (x + y)).abs().max().item()
    secs = time_graph(lambda: tk.vector_add_kernel[(grid,)](x, y, out, n, BLOCK=BLOCK, num_warps=4))
    record("vector_add", "vector_add_kernel", ck, grid, 4 * 32,
           [f"0=f32[{n}]:random:1", f"1=f32[{n}]:random:2", f"2=f32[{n}]:zeros", f"3={n}"], secs, err == 0, err,
           12.0 * n, ptxdir)
    del x, y, out
    # softmax 4096 x 1024 (as softmax.cu), one program per row, 4 warps
    rows, cols = 4096, 1024
    xs = torch.from_numpy(hwsim_random_f32(rows * cols, 1)).to(dev)
    ys = torch.zeros(rows * cols, device=dev)
    ck = tk.softmax_kernel[(rows,)](xs, ys, cols, BLOCK=1024, num_warps=4)
    torch.cuda.synchronize()
    ref = torch.softmax(xs.view(rows, cols).double(), dim=1)
    err = ((ys.view(rows, cols).double() - ref).abs() / ref).max().item()
    secs = time_graph(lambda: tk.softmax_kernel[(rows,)](xs, ys, cols, BLOCK=1024, num_warps=4))
    record("softmax", "softmax_kernel", ck, rows, 4 * 32,
           [f"0=f32[{rows * cols}]:random:1", f"1=f32[{rows * cols}]:zeros", f"2={cols}"], secs, err < 1e-4, err,
           8.0 * rows * cols, ptxdir)


if __name__ == "__main__":
    main()
