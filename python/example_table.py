#!/usr/bin/env python3
"""Example: how Llama-3-8B decode throughput on an H100 moves with HBM bandwidth and batch size.
Prints a table (no plotting stack). Run from the repository root: python3 python/example_table.py"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hwsim  # noqa: E402

rows = hwsim.sweep(chip="h100", workload="decode_llama8b",
                   vary={"memory.hbm.bandwidth": "2TB/s..4TB/s:3", "workload.batch": [1, 16, 64]})
print(hwsim.table(rows, ["memory.hbm.bandwidth", "workload.batch", "status", "tokens_per_second", "tpot", "bound"]))
