#!/usr/bin/env python3
"""Writes data/public/nccl_tests_<system>.jsonl (dgx_h100: one node; h100_cluster: across nodes): published nccl-tests busbw figures as hwsim
measurement records (kind "collective", nccl-tests conventions: `bytes` is the nccl-tests size,
`n` the ranks; `seconds` = bytes / algbw, algbw = busbw / the op's bus factor). Each record names
its source (`source`, a key into SOURCES) and its software. `role` says whether a figure was used
to fit a system parameter ("fit") or only judges ("judge"). Run: python3 scripts/make_public_nccl_records.py
"""
import json, os

G = 2 ** 30
M = 2 ** 20
SOURCES = {
    "L": "NVIDIA/dgxc-benchmarking nccl/README.md (HEAD 841f546), sample output, DGX H100 8 GPUs, default algorithm",
    "B1": "xxrjun/nccl-tests-cluster benchmarks/example-cluster01/.../single-node/.../nccl_N1_G8_cnode3-002.log, "
          "8 x H100 80GB HBM3, NCCL 2.29.2, nccl-tests 2.17.8",
    "B10": "xxrjun/nccl-tests-cluster benchmarks/example-cluster01/.../multi-node/.../nccl_N10_G8.log, "
           "10 nodes x 8 H100 80GB HBM3, NCCL 2.29.2 (NIC not stated: 48.9 GB/s with 1 GPU per node)",
    "I": "stas00/ml-engineering network/README.md (HEAD 744d01e), 8 x H200, NCCL 2.27.7, 8 GiB, "
         "NCCL_NVLS_ENABLE=1/0, by GPU count",
}


def bus_factor(op, n):
    if op == "send_recv":
        return 1
    return 2 * (n - 1) / n if op == "all_reduce" else (n - 1) / n


def record(device, op, size, n, busbw, algo, source, role="judge"):
    algbw = busbw / bus_factor(op, n)
    return dict(kind="collective", device=device, op=op, bytes=size, n=n, dtype="fp32", algo=algo,
                timing="nccl-tests", busbw=busbw, algbw=algbw, seconds=size / (algbw * 1e9),
                source=source, software=SOURCES[source], role=role)


def main():
    out = []
    # L: DGX H100, all_reduce, default algorithm (NVLS at large sizes)
    for size, bw in [(1 * M, 67.04), (2 * M, 86.94), (4 * M, 135.44), (8 * M, 176.77), (16 * M, 237.21),
                     (32 * M, 294.69), (64 * M, 361.67), (128 * M, 400.53), (256 * M, 422.25), (512 * M, 436.79),
                     (1 * G, 466.33), (2 * G, 473.37), (4 * G, 477.24), (8 * G, 480.16), (16 * G, 479.90)]:
        out.append(record("dgx_h100", "all_reduce", size, 8, bw, "default", "L"))
    # B1: one node of 8 H100
    for op, rows in [("all_reduce", [434.51, 444.16, 469.67, 476.25, 479.71, 481.39, 482.27]),
                     ("all_gather", [325.65, 338.09, 345.46, 350.84, 355.78, 359.14, 361.86]),
                     ("reduce_scatter", [326.37, 335.55, 342.70, 349.26, 355.83, 361.36, 364.76])]:
        for k, bw in enumerate(rows):
            out.append(record("dgx_h100", op, 256 * M * 2 ** k, 8, bw, "default", "B1"))
    out.append(record("dgx_h100", "send_recv", 8 * G, 8, 367.04, "default", "B1"))  # sendrecv_perf: each rank to the next
    out.append(record("dgx_h100", "all_to_all", 8 * G, 8, 346.23, "default", "B1"))
    # I: 8 x H200 all_reduce at 8 GiB by GPU count, NVLS on (default) and off (Ring). The 8-GPU ring
    # figure fitted collective.channels of dgx_h100.toml.
    for n, on, off in [(4, 363.3, 363.3), (5, 414.2, 364.4), (6, 435.6, 365.1), (7, 460.0, 365.7), (8, 473.1, 365.6)]:
        out.append(record("dgx_h100", "all_reduce", 8 * G, n, on, "default", "I"))
        out.append(record("dgx_h100", "all_reduce", 8 * G, n, off, "Ring", "I", "fit" if n == 8 else "judge"))
    # B10: 10 nodes of 8 H100 (all_gather, reduce_scatter run as rings across nodes)
    for op, rows in [("all_gather", [218.53, 264.99, 303.96, 313.21, 317.41, 324.29]),
                     ("reduce_scatter", [214.38, 280.00, 312.41, 314.12, 315.75, 323.40])]:
        for k, bw in enumerate(rows):
            out.append(record("h100_cluster", op, 512 * M * 2 ** k, 80, bw, "default", "B10"))
    for system in ("dgx_h100", "h100_cluster"):
        path = os.path.join(os.path.dirname(__file__), "..", "data", "public", f"nccl_tests_{system}.jsonl")
        rows = [r for r in out if r["device"] == system]
        with open(path, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        print(f"{len(rows)} records -> {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
