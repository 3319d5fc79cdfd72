#!/usr/bin/env python3
"""Checks python/hwsim.py against the built binary (ctest python/hwsim_helper): run() returns the
document, sweep() the rows in point order with numbers as numbers, load() reads CSV and JSONL alike,
a bad key raises HwsimError with hwsim's line and exit code, and the example prints its table.
Usage: test_hwsim.py HWSIM_BINARY (run from the repository root)."""
import os
import subprocess
import sys
import tempfile

os.environ["HWSIM_BINARY"] = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hwsim  # noqa: E402

doc = hwsim.run(chip="h100", workload="gemm:M=512,N=512,K=512,dtype=bf16")
assert doc["schema_version"] == 1 and doc["result"]["seconds"] > 0, doc.keys()
assert "kernels" not in doc["result"]["steps"][0]

vary = {"memory.hbm.bandwidth": "1TB/s..2TB/s:2", "workload.M": [64, 128]}
rows = hwsim.sweep(chip="h100", workload="gemm:M=64,N=2048,K=2048,dtype=bf16", vary=vary, jobs=2)
assert [r["index"] for r in rows] == [0, 1, 2, 3], rows
assert rows[1]["workload.M"] == "128" and rows[1]["status"] == "ok"
assert rows[0]["seconds"] > rows[2]["seconds"] > 0  # more bandwidth, a memory-bound GEMM runs faster
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "s.csv")
    csv_rows = hwsim.sweep(chip="h100", workload="gemm:M=64,N=2048,K=2048,dtype=bf16", vary=vary, out=path)
    assert [r["seconds"] for r in csv_rows] == [r["seconds"] for r in rows]
    assert csv_rows[0]["tokens_per_second"] is None
try:
    hwsim.sweep(chip="h100", workload="gemm:M=64,N=64,K=64", vary={"memory.hbm.bandwith": ["1TB/s"]})
    raise AssertionError("an unknown key was accepted")
except hwsim.HwsimError as e:
    assert e.exit_code == 3 and "memory.hbm.bandwith: unknown key" in str(e), str(e)

out = subprocess.run([sys.executable, os.path.join(here, "example_table.py")], capture_output=True, text=True)
assert out.returncode == 0, out.stderr
lines = out.stdout.splitlines()
assert lines[0].split()[:3] == ["memory.hbm.bandwidth", "workload.batch", "status"] and len(lines) == 11, out.stdout
print("python helper: ok")
