"""Where the serving loop's GPU time differs from a FlashAttention engine's (issue 36).

Usage (device): python3 probe_step_parts.py  -> $OUT/h200_serving_parts.jsonl
Times, as CUDA-graph replays of 32 calls (one per layer), CUDA events, median of 15:
  - decode attention: the loop's Triton paged kernel (measure_serve_loop.py) against PyTorch SDPA
    (FlashAttention backend, GQA) over a contiguous cache, batch 1/2/4/8/64/128 at context 200;
  - prefill attention of one chunk (100 and 400 tokens, causal): the same two;
  - a layer's four GEMMs (QKV, O, gate/up, down; random bf16 weights) at the token counts of the
    concurrency runs' prefill steps, as run (100, 200, 400, 800) and as the loop's graphs padded
    them (112, 224, 448, 896).
"""
import json, os, statistics, sys
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv = [sys.argv[0], "probe"]
import measure_serve_loop as L  # noqa: E402

OUT = os.environ.get("OUT", ".")
dev, BF = torch.device("cuda"), torch.bfloat16
H, KV, D, HID, FFN = 32, 8, 128, 4096, 14336
RECS = []


def timed(fn, n=32, reps=15):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            fn()
    g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) / 1e3)
    return statistics.median(ts)   # seconds for n calls (a step's worth)


def rec(**kw):
    RECS.append(dict(kind="serve_step_part", device=L.DEVICE, torch=torch.__version__, **kw))
    print(json.dumps(RECS[-1]), flush=True)
    with open(os.path.join(OUT, "h200_serving_parts.jsonl"), "w") as f:
        for r in RECS:
            f.write(json.dumps(r) + "\n")


def paged(B, ctx, qlen):
    L.ATTN.update(path="triton_paged", block=16)
    nb = B * (-(-ctx // 16)) + 1
    kc = torch.randn(nb, 16, KV, D, device=dev, dtype=BF)
    vc = torch.randn(nb, 16, KV, D, device=dev, dtype=BF)
    perm = (torch.randperm(nb - 1) + 1).tolist()
    per = -(-ctx // 16)
    tables = [perm[i * per:(i + 1) * per] for i in range(B)]
    b = L.batch_tensors(tables, [ctx] * B, [qlen] * B, 16)
    q = torch.randn(B * qlen, H, D, device=dev, dtype=BF)
    return lambda: L.triton_attention(q, kc, vc, b)


def sdpa(B, ctx, qlen):
    q = torch.randn(B, H, qlen, D, device=dev, dtype=BF)
    k = torch.randn(B, KV, ctx, D, device=dev, dtype=BF)
    v = torch.randn(B, KV, ctx, D, device=dev, dtype=BF)
    if qlen == 1:
        return lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def main():
    for B in (1, 2, 4, 8, 64, 128):
        t_tr, t_fa = timed(paged(B, 200, 1)), timed(sdpa(B, 200, 1))
        rec(part="decode_attention", batch=B, context=200, layers=32, triton_paged_s=t_tr, sdpa_flash_s=t_fa,
            excess_s=t_tr - t_fa)
    for T in (100, 400):
        t_tr, t_fa = timed(paged(1, T, T)), timed(sdpa(1, T, T))
        rec(part="prefill_attention", batch=1, prompt=T, layers=32, triton_paged_s=t_tr, sdpa_flash_s=t_fa,
            excess_s=t_tr - t_fa)
    w = [torch.randn(n, k, device=dev, dtype=BF) * 0.02 for n, k in
         ((H * D + 2 * KV * D, HID), (HID, H * D), (2 * FFN, HID), (HID, FFN))]
    for T, Tp in ((100, 112), (200, 224), (400, 448), (800, 896)):
        res = {}
        for n in (T, Tp):
            x = [torch.randn(n, wi.shape[1], device=dev, dtype=BF) for wi in w]
            res[n] = timed(lambda: [F.linear(xi, wi) for xi, wi in zip(x, w)])
        rec(part="layer_gemms", tokens=T, padded=Tp, layers=32, tokens_s=res[T], padded_s=res[Tp],
            padding_cost_s=res[Tp] - res[T])


if __name__ == "__main__":
    main()
