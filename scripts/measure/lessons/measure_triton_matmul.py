"""Times workloads/kernels/lessons/triton_matmul.py (tutorial 03, bf16, one config) at 1024^3,
2048^3 and 4096^3 like measure_triton.py (graph of K launches, 7 timed replays, median / K);
inputs hwsim's `random` buffers rounded to bf16; check against torch.matmul in fp32 on the same
bf16 inputs (max |C - ref| / max |ref|). Writes the PTX to PTXDIR/triton_matmul_bf16.ptx and one
JSON line per size (the record lists the PTX entry's parameters, so that --arg positions match).

usage: python3 measure_triton_matmul.py PTXDIR
"""
import json
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "workloads", "kernels", "lessons"))
import triton_matmul as tm  # noqa: E402
from measure_triton import hwsim_random_f32, time_graph  # noqa: E402


def ptx_params(ptx):
    head = ptx[ptx.index(".entry"):]
    head = head[:head.index(")")]
    return re.findall(r"\.param\s+\.(\w+)\s+(\w+)", head)


def main():
    ptxdir = sys.argv[1]
    os.makedirs(ptxdir, exist_ok=True)
    dev = torch.device("cuda")
    for n in (1024, 2048, 4096):
        a = torch.from_numpy(hwsim_random_f32(n * n, 1)).to(dev).to(torch.bfloat16).view(n, n)
        b = torch.from_numpy(hwsim_random_f32(n * n, 2)).to(dev).to(torch.bfloat16).view(n, n)
        c = torch.full((n, n), float("nan"), device=dev, dtype=torch.bfloat16)

        def launch():
            return tm.matmul_kernel[tm.grid(n, n)](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0),
                                                  b.stride(1), c.stride(0), c.stride(1), num_stages=tm.NUM_STAGES,
                                                  num_warps=tm.NUM_WARPS, **tm.CONFIG)
        ck = launch()
        torch.cuda.synchronize()
        ref = a.float() @ b.float()
        err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
        secs = time_graph(launch)
        ptx = ck.asm["ptx"]
        path = os.path.join(ptxdir, "triton_matmul_bf16.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        params = ptx_params(ptx)
        entry = re.search(r"\.entry\s+(\w+)", ptx).group(1)
        shared = int(getattr(ck.metadata, "shared", 0))
        grid = tm.grid(n, n)[0]
        med, mn, mx, K, single = secs
        flops = 2.0 * n * n * n
        print(json.dumps({
            "kind": "lesson", "device": torch.cuda.get_device_name(0), "lesson": "triton_matmul",
            "kernel": "matmul_kernel", "speedup_group": "triton_matmul_bf16", "size": n, "grid": [grid, 1, 1],
            "block": [32 * tm.NUM_WARPS, 1, 1], "dynamic_shared": shared, "config": tm.CONFIG,
            "num_stages": tm.NUM_STAGES, "num_warps": tm.NUM_WARPS, "ptx_params": params,
            "seconds": med, "tmin": mn, "tmax": mx, "reps": 7, "launches_per_graph": K,
            "single_launch_seconds": single, "check": "ok" if err < 1e-2 else "mismatch", "max_err": err,
            "flops": flops, "tflops": flops / med * 1e-12, "ptx": "workloads/kernels/lessons/ptx/triton_matmul_bf16.ptx",
            "ptx_entry": entry, "triton": __import__("triton").__version__,
            "note": "inputs in L2 across graph replays at 1024 and 2048 (A+B 4 and 16 MB); compute-bound",
        }), flush=True)
        del a, b, c, ref


if __name__ == "__main__":
    main()
