"""One launch of each tensor-core matmul lesson at 2048^3 (after a warm-up), for Nsight Compute to
read its L2 and DRAM traffic (run_matmul_ncu.sh):
  ncu --clock-control none -k regex:'matmul' --metrics ... python3 ncu_matmul.py
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "workloads", "kernels", "lessons"))
import triton_matmul as tm  # noqa: E402

n = 2048
a = torch.randn(n, n, device="cuda").to(torch.bfloat16)
b = torch.randn(n, n, device="cuda").to(torch.bfloat16)
c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
for _ in range(3):
    tm.matmul_kernel[tm.grid(n, n)](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                    c.stride(0), c.stride(1), num_stages=tm.NUM_STAGES, num_warps=tm.NUM_WARPS,
                                    **tm.CONFIG)
torch.cuda.synchronize()
print("ok", float((c.float() - a.float() @ b.float()).abs().max()))
