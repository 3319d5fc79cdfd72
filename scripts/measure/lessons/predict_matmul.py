"""Runs the tensor-core matmul lessons' PTX (data/measurements/h200_matmul_ptx.jsonl) through
hwsim's warp model and prints predicted vs measured, as `hwsim validate --kind lesson` composes a
graph-timed prediction: kernel cycles / SM clock + gpu.warp.graph_launch (read from the chip file,
following its `extends`).
The graph replays find the buffers in L2 when they fit: --warm-l2 where all of them fit one L2
partition (30 MB: the 1024 cubes and Triton's 2048); the others start cold. Grids of more than 66
blocks run on a sample of SMs (--sample-sms: their share of the grid and of the L2 and DRAM
bandwidth; 16 SMs up to 264 blocks, else 33) to keep the simulation within minutes. Extra
arguments after HWSIM go to every run (e.g. --set gpu.warp.l2_merge=true).

usage: python3 scripts/measure/lessons/predict_matmul.py [HWSIM [HWSIM ARGS...]]
"""
import json
import re
import subprocess
import sys
import tempfile

HWSIM = sys.argv[1] if len(sys.argv) > 1 else "build/hwsim"
EXTRA = sys.argv[2:]
RECORDS = "data/measurements/h200_matmul_ptx.jsonl"
SMS = 132
WARM_BYTES = 30 << 20  # one L2 partition of the H200 (60 MiB in two)


def graph_launch(chip="configs/h200.toml"):
    """gpu.warp.graph_launch of the chip file or of the file it extends, in seconds."""
    text = open(chip).read()
    m = re.search(r'^graph_launch\s*=\s*"([\d.]+)\s*us"', text, re.M)
    if m:
        return float(m.group(1)) * 1e-6
    base = re.search(r'^extends\s*=\s*"([^"]+)"', text, re.M)
    return graph_launch("configs/" + base.group(1))


def command(r):
    n = r["size"]
    nn = n * n
    if r["lesson"] == "mma_matmul":
        args = [f"0=bf16[{nn}]:random:1", f"1=bf16[{nn}]:random:2", f"2=f32[{nn}]:zeros", f"3={n}", f"4={n}", f"5={n}"]
        cmd = ["--kernel", "workloads/kernels/lessons/ptx/mma_matmul_sm90.ptx", "--entry", "mma_matmul",
               "--grid", f"{r['grid'][0]},{r['grid'][1]}", "--block", "256"]
    else:  # Triton: a, b, c, M, N, K, stride_am, stride_bk, stride_cm (unit strides specialised away), 2 scratch
        args = [f"0=bf16[{nn}]:random:1", f"1=bf16[{nn}]:random:2", f"2=bf16[{nn}]:zeros"] + \
               [f"{i}={n}" for i in range(3, 9)] + ["9=u8[16]:zeros", "10=u8[16]:zeros"]
        cmd = ["--kernel", "workloads/kernels/lessons/ptx/triton_matmul_bf16.ptx", "--grid", str(r["grid"][0]),
               "--block", str(r["block"][0]), "--dynamic-shared", str(r["dynamic_shared"])]
    blocks = r["grid"][0] * r["grid"][1]
    if blocks > SMS // 2:
        cmd += ["--sample-sms", "16" if blocks <= 2 * SMS else "33"]
    out_bytes = 4 if r["lesson"] == "mma_matmul" else 2
    if nn * (2 + 2 + out_bytes) <= WARM_BYTES:
        cmd += ["--warm-l2"]
    for a in args:
        cmd += ["--arg", a]
    return cmd


def main():
    rows = [json.loads(l) for l in open(RECORDS) if l.startswith("{")]
    launch = graph_launch()
    print(f"{'kernel':14s} {'size':>5s} {'measured us':>12s} {'predicted us':>13s} {'error':>7s}  command")
    for r in rows:
        cmd = command(r)
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            subprocess.run([HWSIM, "--chip", "h200", *EXTRA, *cmd, "--json", f.name], check=True, capture_output=True)
            doc = json.load(open(f.name))
        res = doc["result"]
        pred = res["cycles"] / res["clock_hz"] + launch
        err = (pred - r["seconds"]) / r["seconds"]
        print(f"{r['lesson']:14s} {r['size']:5d} {r['seconds'] * 1e6:12.2f} {pred * 1e6:13.2f} {err * 100:+6.1f}%  "
              f"hwsim --chip h200 {' '.join(cmd)}", flush=True)


if __name__ == "__main__":
    main()
