"""Two small Triton lessons, the Triton twins of vector add and of softmax.cu.

vector_add_kernel: out[i] = x[i] + y[i], BLOCK elements per program.
softmax_kernel:    row-wise softmax, one program per row, the whole row (BLOCK >= n_cols) in registers.

scripts/measure/lessons/measure_triton.py times them on the GPU and saves their PTX
(workloads/kernels/lessons/ptx/triton_*.ptx).
"""
import triton
import triton.language as tl


@triton.jit
def vector_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * n_cols + offs, y, mask=mask)
