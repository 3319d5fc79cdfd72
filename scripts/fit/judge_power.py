#!/usr/bin/env python3
"""Print the held-out tables of docs/calibration.md, "Power and clocks": joules per call and
sustained SM clock of every NVML energy record, predicted by hwsim against the measurement.
Standard library only; a few minutes on 2 cores.

    python3 scripts/fit/judge_power.py [build/hwsim]

Files (data/measurements/): h100_energy.jsonl (run 1: its records named in fit_power.py fitted the
H100's parameters), h100_energy_run2.jsonl (the same cases again, on --chip h100) and
h200_energy.jsonl (an H200, on --chip h200: only its idle records fitted, power.idle and
power.idle_floor). Clocks: the last call of a repeat=3 loop for GEMMs and streams, the step's
time-weighted clock for decode and prefill.
"""
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HWSIM = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "hwsim")
DATA = ROOT / "data" / "measurements"
FILES = [("h100_energy.jsonl", "h100", "H100 run 1"), ("h100_energy_run2.jsonl", "h100", "H100 run 2"),
         ("h200_energy.jsonl", "h200", "H200")]
FITTED = {"gemm_bf16_8192", "gemm_fp8_8192", "gemm_tf32_8192", "gemm_fp32_4096", "hbm_read_4GiB",
          "hbm_copy_4GiB", "hbm_write_4GiB", "decode_llama3_8b_b256_ctx1024"}  # on H100 run 1


def validate(name, chip):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "v.csv"
        subprocess.run([HWSIM, "validate", str(DATA / name), "--chip", chip, "--kind", "energy", "--csv", str(out)],
                       check=True, capture_output=True, cwd=ROOT)
        return {r["case"]: r for r in csv.DictReader(open(out))}


def spec(r):
    op = r["op"]
    if op == "gemm":
        return f"gemm:M={r['M']},N={r['N']},K={r['K']},dtype={r['dtype'].split('_')[0]},repeat=3"
    if op == "decode_step":
        return f"decode:model={r['model']},batch={r['batch']},context={r['context']}"
    if op == "prefill_step":
        return f"prefill:model={r['model']},batch=1,prompt={r['prompt']}"
    return None


def clock(chip, r):
    s = spec(r)
    if s is None:
        return None
    out = subprocess.run([HWSIM, "--chip", chip, "-w", s, "--json", "-", "--quiet"], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    res = json.loads(out.stdout)["result"]
    if r["op"] == "gemm":
        return res["steps"][-1]["kernels"][-1]["clock"] / 1e6
    return res["power"]["average_clock"] / 1e6


def family(r):
    return {"gemm": "GEMM", "decode_step": "decode", "prefill_step": "prefill"}.get(
        r["op"], "L2" if r.get("resident") == "L2" else "HBM")


def main():
    rows = {name: validate(name, chip) for name, chip, _ in FILES}
    records = {}
    for name, chip, _ in FILES:
        for line in open(DATA / name):
            r = json.loads(line)
            if r.get("kind") == "energy" and r.get("joules_per_call"):
                records[(name, r["case"])] = r
    cases = list(rows["h100_energy.jsonl"])
    print("| record | J/call H100 run 1 | run 2 | H200 | clock H100 pred / meas (run 1) | clock H200 pred / meas |")
    print("|---|---|---|---|---|---|")
    mape = {}
    for case in cases:
        cells = []
        for name, chip, label in FILES:
            row = rows[name].get(case)
            err = float(row["error_pct"]) if row else None
            fitted = case in FITTED and name.startswith("h100")
            cells.append("–" if err is None else f"{err:+.1f} %" + (" (fit)" if fitted and name == FILES[0][0] else ""))
            if err is not None and not (fitted and name == FILES[0][0]) and not (case in FITTED and name == FILES[1][0]):
                mape.setdefault((label, family(records[(name, case)])), []).append(abs(err))
        clocks = []
        for name, chip, _ in (FILES[0], FILES[2]):
            r = records.get((name, case))
            c = clock(chip, r) if r else None
            clocks.append("" if c is None else f"{c:.0f} / {float(r['avg_sm_clock_mhz']):.0f} MHz")
        print(f"| {case} | " + " | ".join(cells + clocks) + " |", flush=True)
    print()
    print("| judged records | GEMM | HBM | L2 | decode | prefill |")
    print("|---|---|---|---|---|---|")
    for _, _, label in FILES:
        cells = []
        for fam in ("GEMM", "HBM", "L2", "decode", "prefill"):
            e = mape.get((label, fam), [])
            cells.append(f"{sum(e) / len(e):.1f} % ({len(e)})" if e else "–")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
