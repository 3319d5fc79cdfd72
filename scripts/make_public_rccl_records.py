#!/usr/bin/env python3
"""Writes data/public/rccl_tests_mi300x.jsonl: published rccl-tests tables on 8 x MI300X as hwsim
measurement records (kind "collective", the same conventions as scripts/make_public_nccl_records.py:
`bytes` is the rccl-tests size, `n` the ranks, `seconds` the out-of-place time rccl-tests printed;
busbw and algbw as printed; `timing` "nccl-tests": rccl-tests is ROCm's fork of nccl-tests, with its
timing loop and bus factors, `harness` names it). Each record names its source (`source`, a key into SOURCES) and its
software. `role` says whether a figure was used to fit a system parameter ("fit") or only judges
("judge"). Run: python3 scripts/make_public_rccl_records.py
"""
import json, os
from public_records import write_public

K = 2 ** 10
SOURCES = {
    "X": "ROCm/rocm-blogs blogs/software-tools-optimization/mi300x-rccl-xgmi/README.md (commit 0e81c2c; "
         "https://rocm.blogs.amd.com/software-tools-optimization/mi300x-rccl-xgmi/README.html, 2 March 2025), "
         "'Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X': 8 x MI300X (one node), "
         "RCCL 2.22.3-develop:f5b15f2, ROCm 6.3.0, rccl-tests develop:448c4c7, "
         "mpirun -np 8 all_reduce_perf -b 8 -e 16G -f 2 -g 1 (one process per GPU, no HIP graphs), out-of-place",
}

# X, all_reduce float sum, out-of-place: (bytes, time us, algbw, busbw) as printed. The 8-512 B rows
# (16.1-22.9 us, slower than 1 KiB's 13.1) are left out: below 1 KiB RCCL takes another path whose
# cost falls as the size grows, which no latency + size / bandwidth model follows.
ALL_REDUCE_X = [
    (1 * K, 13.11, 0.08, 0.14), (2 * K, 13.09, 0.16, 0.27), (4 * K, 13.27, 0.31, 0.54),
    (8 * K, 13.30, 0.62, 1.08), (16 * K, 13.54, 1.21, 2.12), (32 * K, 13.31, 2.46, 4.31),
    (64 * K, 13.77, 4.76, 8.33), (128 * K, 14.14, 9.27, 16.22), (256 * K, 16.87, 15.54, 27.20),
    (512 * K, 24.41, 21.48, 37.59), (1 * K ** 2, 27.42, 38.25, 66.93), (2 * K ** 2, 34.81, 60.25, 105.43),
    (4 * K ** 2, 51.72, 81.09, 141.91), (8 * K ** 2, 83.68, 100.24, 175.43), (16 * K ** 2, 148.8, 112.72, 197.26),
    (32 * K ** 2, 244.1, 137.47, 240.57), (64 * K ** 2, 429.1, 156.38, 273.66), (128 * K ** 2, 797.4, 168.32, 294.55),
    (256 * K ** 2, 1537.1, 174.64, 305.62), (512 * K ** 2, 3026.2, 177.41, 310.46), (1 * K ** 3, 5970.6, 179.84, 314.72),
    (2 * K ** 3, 11891, 180.59, 316.04), (4 * K ** 3, 23680, 181.37, 317.40), (8 * K ** 3, 47278, 181.69, 317.96),
    (16 * K ** 3, 94254, 182.27, 318.98),
]
# Sizes whose record fitted a parameter of configs/systems/mi300x_x8.toml: 1 KiB, collective.launch_overhead
# = 0 (RCCL's 12 us baseLat + 2 x 0.8 us steps already make its 13.1 us; the baseLat holds the launch).
FIT = {1 * K}


def record(op, size, n, us, algbw, busbw, source, role):
    return dict(kind="collective", device="mi300x_x8", op=op, bytes=size, n=n, dtype="fp32", algo="default",
                timing="nccl-tests", harness="rccl-tests develop:448c4c7", busbw=busbw, algbw=algbw, seconds=us / 1e6,
                source=source, software=SOURCES[source], role=role)


def main():
    out = [record("all_reduce", size, 8, us, algbw, busbw, "X", "fit" if size in FIT else "judge")
           for size, us, algbw, busbw in ALL_REDUCE_X]
    write_public("rccl_tests_mi300x.jsonl", out)


if __name__ == "__main__":
    main()
