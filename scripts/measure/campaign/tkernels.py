"""Small GPU kernels the campaign needs beyond PyTorch's own: int4 -> bf16 dequantisation (the
"separate dequantisation" path of a weight-only int4 linear) and an L2-bound read loop.

Each has a Triton version and a plain-PyTorch fallback; `impl` says which ran. Imported only on
the GPU machine (torch, triton).
"""
import torch

try:
    import triton
    import triton.language as tl
    HAVE_TRITON = True
except Exception:  # noqa: BLE001
    HAVE_TRITON = False

GROUP = 128  # int4 quantisation group size along K (as tinygemm's q_group_size)

if HAVE_TRITON:
    @triton.jit
    def _dequant_int4_kernel(packed_ptr, scale_ptr, zero_ptr, out_ptr, n_bytes, half_k, groups_per_row,
                             GROUP_HALF: tl.constexpr, BLOCK: tl.constexpr):
        # packed: uint8 [N, K/2], byte j of row n holds k = 2j in the high nibble and k = 2j+1 in the
        # low one (the order torch._convert_weight_to_int4pack takes). w = (q - 8) * scale + zero,
        # scale/zero per (row, group of 128 along K). out: bf16 [N, K] written as int32 pairs.
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_bytes
        b = tl.load(packed_ptr + offs, mask=mask, other=0).to(tl.int32)
        hi = (b >> 4) & 15
        lo = b & 15
        row = offs // half_k
        kb = offs % half_k
        g = row * groups_per_row + kb // GROUP_HALF
        s = tl.load(scale_ptr + g, mask=mask, other=0.0).to(tl.float32)
        z = tl.load(zero_ptr + g, mask=mask, other=0.0).to(tl.float32)
        w_hi = ((hi - 8).to(tl.float32) * s + z).to(tl.bfloat16)
        w_lo = ((lo - 8).to(tl.float32) * s + z).to(tl.bfloat16)
        bits_hi = w_hi.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        bits_lo = w_lo.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        word = bits_hi | (bits_lo << 16)  # little endian: element 2j (hi nibble) at the lower address
        tl.store(out_ptr + offs, word, mask=mask)

    @triton.jit
    def _l2_read_kernel(x_ptr, out_ptr, nblocks, passes, BLOCK: tl.constexpr):
        # each program reads `passes` blocks of the buffer, round-robin: an L2-resident stream
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for p in range(passes):
            blk = (pid + p * nprog) % nblocks
            acc += tl.load(x_ptr + blk * BLOCK + tl.arange(0, BLOCK))
        tl.store(out_ptr + pid, tl.sum(acc, axis=0))

def quantize_int4(w, group=GROUP):
    """w [N, K] (bf16) -> (q int32 [N, K] in 0..15, scale [N, K/g], zero [N, K/g] bf16, w_deq bf16).
    Asymmetric groupwise, tinygemm convention: w ~ (q - 8) * scale + zero."""
    N, K = w.shape
    wf = w.float().view(N, K // group, group)
    mn = wf.amin(-1, keepdim=True)
    mx = wf.amax(-1, keepdim=True)
    scale = ((mx - mn).clamp(min=1e-6) / 15.0)
    zero = mn + 8.0 * scale
    q = ((wf - mn) / scale).round().clamp(0, 15)
    w_deq = ((q - 8.0) * scale + zero).view(N, K).to(torch.bfloat16)
    return (q.view(N, K).to(torch.int32), scale.view(N, K // group).to(torch.bfloat16),
            zero.view(N, K // group).to(torch.bfloat16), w_deq)


def pack_uint8(q):
    """int32 [N, K] (0..15) -> uint8 [N, K/2], even k in the high nibble."""
    return ((q[:, ::2] << 4) | q[:, 1::2]).to(torch.uint8)


def dequant_int4(packed, scale, zero, out, impl):
    """packed uint8 [N, K/2], scale/zero [N, K/128] -> out bf16 [N, K] (written in place)."""
    N, half = packed.shape
    if impl == "triton":
        n_bytes = N * half
        BLOCK = 2048
        grid = (triton.cdiv(n_bytes, BLOCK),)
        _dequant_int4_kernel[grid](packed, scale, zero, out.view(torch.int32), n_bytes, half,
                                   (2 * half) // GROUP, GROUP_HALF=GROUP // 2, BLOCK=BLOCK,
                                   num_warps=8)
        return out
    # eager fallback: several elementwise kernels, as plain PyTorch would run it
    q = torch.stack([(packed >> 4), (packed & 15)], dim=-1).view(N, 2 * half).to(torch.bfloat16)
    q = q.view(N, -1, GROUP)
    torch.addcmul(zero.unsqueeze(-1), q - 8, scale.unsqueeze(-1), out=out.view(N, -1, GROUP))
    return out


def l2_read(x, out, passes, impl, nprog):
    """Read the (L2-resident) float32 buffer x `passes` x nprog x 1024 elements' worth."""
    if impl == "triton":
        BLOCK = 1024
        _l2_read_kernel[(nprog,)](x, out, x.numel() // BLOCK, passes, BLOCK=BLOCK, num_warps=4)
        return out
    reps = max(1, (passes * nprog * 1024) // x.numel())
    return torch.sum(x.view(1, -1).expand(reps, -1), dim=1, out=out[:reps])
