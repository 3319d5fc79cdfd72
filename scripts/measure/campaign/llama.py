"""Llama-3-8B decoder for the campaign's power-cap and energy cases.

The same model as the `Llama` class of scripts/measure/measure_llm.py (random bf16 weights, static
KV cache, plain eager PyTorch ops, SDPA with enable_gqa=True, HF rotate_half RoPE), copied here
because that script runs on import. Keep the two in step.
"""
import torch
import torch.nn.functional as F

BF = torch.bfloat16
CFG_8B = dict(model="llama3_8b", layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128,
              ffn=14336, vocab=128256, theta=500000.0, eps=1e-5)


def cache_cap(n):
    return ((n + 63) // 64) * 64


class Llama:
    def __init__(self, c=CFG_8B, dev="cuda"):
        self.c, self.dev = c, dev
        H, D, KV, hid, ffn = c["heads"], c["head_dim"], c["kv_heads"], c["hidden"], c["ffn"]
        self.hq, self.hk = H * D, KV * D

        def w(*shape, std=0.02):
            return torch.empty(*shape, device=dev, dtype=BF).normal_(0.0, std)

        self.emb = w(c["vocab"], hid, std=1.0)
        self.lm_head = w(c["vocab"], hid)
        self.norm_f = torch.ones(hid, device=dev, dtype=BF)
        self.L = []
        for _ in range(c["layers"]):
            self.L.append(dict(
                ln1=torch.ones(hid, device=dev, dtype=BF), ln2=torch.ones(hid, device=dev, dtype=BF),
                wqkv=w(self.hq + 2 * self.hk, hid), wo=w(hid, self.hq),
                wgu=w(2 * ffn, hid), wd=w(hid, ffn)))
        self.inv_freq = 1.0 / (c["theta"] ** (torch.arange(0, D, 2, device=dev, dtype=torch.float32) / D))
        self.kc = self.vc = None

    def weight_bytes(self):
        n = sum(t.numel() for l in self.L for k, t in l.items() if k.startswith("w"))
        return 2 * (n + self.lm_head.numel())

    def linear_params(self):
        return sum(t.numel() for l in self.L for k, t in l.items() if k.startswith("w"))

    def alloc_cache(self, B, cap):
        c = self.c
        self.kc = self.vc = None
        torch.cuda.empty_cache()
        buf = torch.empty(c["layers"], 2, B, c["kv_heads"], cap, c["head_dim"], device=self.dev, dtype=BF)
        buf.normal_()
        self.kc = [buf[l, 0] for l in range(c["layers"])]
        self.vc = [buf[l, 1] for l in range(c["layers"])]
        return buf.numel() * 2

    def free_cache(self):
        self.kc = self.vc = None
        torch.cuda.empty_cache()

    def rope_tables(self, start, T):
        pos = torch.arange(start, start + T, device=self.dev, dtype=torch.float32)
        f = torch.outer(pos, self.inv_freq)
        e = torch.cat([f, f], dim=-1)
        return e.cos().to(BF)[None, None], e.sin().to(BF)[None, None]

    @staticmethod
    def rope(x, cos, sin):
        h = x.shape[-1] // 2
        rot = torch.cat([-x[..., h:], x[..., :h]], dim=-1)
        return x * cos + rot * sin

    def forward(self, ids, start, cos, sin):
        c = self.c
        B, T = ids.shape
        H, KV, D, hid, eps = c["heads"], c["kv_heads"], c["head_dim"], c["hidden"], c["eps"]
        h = F.embedding(ids, self.emb)
        for l, p in enumerate(self.L):
            x = F.rms_norm(h, (hid,), p["ln1"], eps)
            qkv = F.linear(x, p["wqkv"])
            q = qkv[..., :self.hq].view(B, T, H, D).transpose(1, 2)
            k = qkv[..., self.hq:self.hq + self.hk].view(B, T, KV, D).transpose(1, 2)
            v = qkv[..., self.hq + self.hk:].view(B, T, KV, D).transpose(1, 2)
            q = self.rope(q, cos, sin)
            k = self.rope(k, cos, sin)
            self.kc[l][:, :, start:start + T] = k
            self.vc[l][:, :, start:start + T] = v
            o = F.scaled_dot_product_attention(q, self.kc[l][:, :, :start + T], self.vc[l][:, :, :start + T],
                                               is_causal=T > 1, enable_gqa=True)
            o = o.transpose(1, 2).reshape(B, T, self.hq)
            h = h + F.linear(o, p["wo"])
            x = F.rms_norm(h, (hid,), p["ln2"], eps)
            gu = F.linear(x, p["wgu"])
            g, u = gu.split(c["ffn"], dim=-1)
            h = h + F.linear(F.silu(g) * u, p["wd"])
        x = F.rms_norm(h[:, -1], (hid,), self.norm_f, eps)
        return F.linear(x, self.lm_head)


_MODEL = None


def get_model():
    global _MODEL
    if _MODEL is None:
        _MODEL = Llama()
    return _MODEL


def drop_model():
    global _MODEL
    _MODEL = None
    torch.cuda.empty_cache()


def step_fn(m, kind, B, L):
    """(fn, info) for one decode step (B sequences at position L) or one prefill of B x L tokens.

    The cache is allocated here; fn() runs one step (capturable in a CUDA graph)."""
    c = m.c
    if kind == "decode":
        cap = cache_cap(L + 1)
        m.alloc_cache(B, cap)
        ids = torch.randint(0, c["vocab"], (B, 1), device=m.dev)
        cos, sin = m.rope_tables(L, 1)
        start = L
        kv_read = c["layers"] * 2 * B * c["kv_heads"] * (L + 1) * c["head_dim"] * 2
        info = dict(model=c["model"], batch=B, context=L, cache_capacity=cap, weight_bytes=m.weight_bytes(),
                    kv_bytes_read=kv_read, bytes_per_call=m.weight_bytes() + kv_read,
                    flops_per_call=2.0 * B * (m.linear_params() + c["vocab"] * c["hidden"]))
    else:
        cap = cache_cap(L)
        m.alloc_cache(B, cap)
        ids = torch.randint(0, c["vocab"], (B, L), device=m.dev)
        cos, sin = m.rope_tables(0, L)
        start = 0
        lin = 2.0 * B * L * m.linear_params() + 2.0 * B * c["vocab"] * c["hidden"]
        attn = c["layers"] * 4.0 * B * c["heads"] * c["head_dim"] * L * (L + 1) / 2
        info = dict(model=c["model"], batch=B, prompt=L, cache_capacity=cap, linear_flops=lin, attn_flops=attn,
                    flops_per_call=lin + attn)
    out = {}

    def fn(i=0):
        out["y"] = m.forward(ids, start, cos, sin)

    return fn, info
