"""LLM-shaped GPU measurements for hwsim (PyTorch, random weights, bf16).

Usage (on the device machine):  python3 measure_llm.py TAG [section,section,...]
  sections: decode, prefill, decode70b, attention, gemm, elementwise, profile
Writes $OUT/TAG.jsonl (one JSON object per line, rewritten after every
measurement so a timeout still leaves data), $OUT/TAG_decode_kernels.json
(torch.profiler kernel breakdown of three decode configurations) and
$OUT/TAG_smi.csv (nvidia-smi samples of clocks/power during the run).

Timing follows shared/calibration/methods/measure_calibration.py: launches are
captured in a CUDA graph, the graph is replayed `reps` times, each replay timed
with CUDA events, and the median per-call time is reported as `seconds`
(`tmin`/`tmax` give the spread).  Inputs of small kernels are rotated among
several buffer sets so that operands come from HBM rather than L2.
"""
import json, math, os, statistics, subprocess, sys, time, traceback
import torch
import torch.nn.functional as F

OUT = os.environ.get("OUT", ".")
TAG = sys.argv[1] if len(sys.argv) > 1 else "gpu"
SECTIONS = sys.argv[2].split(",") if len(sys.argv) > 2 else None
dev = torch.device("cuda")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
BF = torch.bfloat16
T_START = time.time()

props = torch.cuda.get_device_properties(0)
NAME = props.name


def device_id(name):
    n = name.upper()
    if "H200" in n:
        return "h200_nvl" if "NVL" in n else "h200_sxm"
    if "H100" in n:
        if "PCIE" in n:
            return "h100_pcie"
        return "h100_nvl" if "NVL" in n else "h100_sxm"
    return name.lower().replace(" ", "_")


DEVICE = device_id(NAME)
RECORDS = []
META = {"errors": [], "skipped": [], "section_s": {}}


def log(*a):
    print(f"[{TAG} {time.time() - T_START:6.1f}s]", *a, flush=True)


def flush():
    with open(os.path.join(OUT, f"{TAG}.jsonl"), "w") as f:
        for r in RECORDS:
            f.write(json.dumps(r) + "\n")
        f.write(json.dumps(dict(kind="run_meta", device=DEVICE,
                                wall_s=round(time.time() - T_START, 1), **META)) + "\n")


def rec(kind, **kw):
    r = dict(kind=kind, device=DEVICE, **kw)
    RECORDS.append(r)
    return r


def smi(fields):
    try:
        p = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        if p.returncode != 0:
            return None
        return dict(zip(fields.split(","), [v.strip() for v in p.stdout.strip().split("\n")[0].split(",")]))
    except Exception as e:  # noqa
        return None


# ----------------------------------------------------------------------------- timing
def time_graph(fn, iters=20, reps=7, warm=2):
    """Median GPU seconds per fn(i) call, `iters` calls captured in one CUDA graph."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for i in range(warm):
            fn(i)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(iters):
            fn(i)
    g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) / 1e3 / iters)
    return statistics.median(ts), min(ts), max(ts), g


def nbuf_for(bytes_each, floor=512 << 20, cap=64):
    """Buffer sets to rotate so the rotation footprint (>= 512 MiB) is ~10x L2."""
    return max(1, min(cap, math.ceil(floor / max(bytes_each, 1))))


def section(name):
    def deco(f):
        def run():
            if SECTIONS and name not in SECTIONS:
                return
            t0 = time.time()
            log(f"=== section {name}")
            try:
                f()
            except Exception:
                tb = traceback.format_exc()
                META["errors"].append({"section": name, "trace": tb[-3000:]})
                log(f"ERROR in {name}:\n{tb}")
            META["section_s"][name] = round(time.time() - t0, 1)
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            flush()
            log(f"=== {name} done in {time.time() - t0:.1f}s, records={len(RECORDS)}")
        return run
    return deco


# ----------------------------------------------------------------------------- SDPA / GQA
def _probe_gqa():
    q = torch.randn(1, 4, 1, 64, device=dev, dtype=BF)
    k = torch.randn(1, 2, 8, 64, device=dev, dtype=BF)
    try:
        o = F.scaled_dot_product_attention(q, k, k, enable_gqa=True)
        ref = F.scaled_dot_product_attention(q.float(), k.float().repeat_interleave(2, 1),
                                             k.float().repeat_interleave(2, 1))
        err = ((o.float() - ref).norm() / ref.norm()).item()
        log(f"enable_gqa supported, rel err vs fp32 repeat_interleave = {err:.2e}")
        return "sdpa_enable_gqa"
    except TypeError:
        log("enable_gqa NOT supported: using repeat_interleave")
        return "sdpa_repeat_interleave"


ATTN_IMPL = None


def sdpa(q, k, v, causal):
    if ATTN_IMPL == "sdpa_enable_gqa":
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    rep = q.shape[1] // k.shape[1]
    return F.scaled_dot_product_attention(q, k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1),
                                          is_causal=causal)


# ----------------------------------------------------------------------------- model
CFG_8B = dict(model="llama3_8b", layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128,
              ffn=14336, vocab=128256, theta=500000.0, eps=1e-5)
CFG_70B = dict(model="llama3_70b", layers=8, hidden=8192, heads=64, kv_heads=8, head_dim=128,
               ffn=28672, vocab=128256, theta=500000.0, eps=1e-5)


class Llama:
    """Minimal Llama-3 decoder: random bf16 weights, static KV cache, eager PyTorch ops."""

    def __init__(self, c):
        self.c = c
        H, D, KV, hid, ffn = c["heads"], c["head_dim"], c["kv_heads"], c["hidden"], c["ffn"]
        self.hq, self.hk = H * D, KV * D

        def w(*shape, std=0.02):
            return torch.empty(*shape, device=dev, dtype=BF).normal_(0.0, std)

        self.emb = w(c["vocab"], hid, std=1.0)
        self.lm_head = w(c["vocab"], hid)  # untied
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

    def alloc_cache(self, B, cap):
        c = self.c
        self.kc = self.vc = None
        torch.cuda.empty_cache()
        buf = torch.empty(c["layers"], 2, B, c["kv_heads"], cap, c["head_dim"], device=dev, dtype=BF)
        buf.normal_()  # random history: never time attention on zeros
        self.kc = [buf[l, 0] for l in range(c["layers"])]
        self.vc = [buf[l, 1] for l in range(c["layers"])]
        return buf.numel() * 2

    def rope_tables(self, start, T):
        pos = torch.arange(start, start + T, device=dev, dtype=torch.float32)
        f = torch.outer(pos, self.inv_freq)
        e = torch.cat([f, f], dim=-1)
        return e.cos().to(BF)[None, None], e.sin().to(BF)[None, None]  # [1,1,T,D]

    @staticmethod
    def rope(x, cos, sin):  # HF-style rotate_half, separate eager kernels
        h = x.shape[-1] // 2
        rot = torch.cat([-x[..., h:], x[..., :h]], dim=-1)
        return x * cos + rot * sin

    def forward(self, ids, start, cos, sin):
        """ids [B,T]; positions start..start+T-1 written to the cache; logits of last token."""
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
            o = sdpa(q, self.kc[l][:, :, :start + T], self.vc[l][:, :, :start + T], causal=T > 1)
            o = o.transpose(1, 2).reshape(B, T, self.hq)
            h = h + F.linear(o, p["wo"])
            x = F.rms_norm(h, (hid,), p["ln2"], eps)
            gu = F.linear(x, p["wgu"])
            g, u = gu.split(c["ffn"], dim=-1)
            h = h + F.linear(F.silu(g) * u, p["wd"])
        x = F.rms_norm(h[:, -1], (hid,), self.norm_f, eps)
        return F.linear(x, self.lm_head)


def cache_cap(n):
    return ((n + 63) // 64) * 64


def kv_read_bytes(c, B, ctx):
    return c["layers"] * 2 * B * c["kv_heads"] * ctx * c["head_dim"] * 2


def fits(need_bytes, margin=3 << 30):
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    return need_bytes + margin < free, free


# ----------------------------------------------------------------------------- decode
DECODE_GRID = [(1, 128), (1, 512), (1, 2048), (1, 8192), (4, 512), (8, 2048), (16, 1024), (32, 512),
               (32, 2048), (64, 512), (64, 2048), (128, 512), (128, 1024), (256, 512), (256, 1024)]
PROFILE_SET = [(1, 512), (32, 2048), (256, 512)]
MODEL = None
PROFILES = {"device": DEVICE, "name": NAME, "note": "torch.profiler CUDA activity (kernels, memcpy, "
            "memset); per kernel name: count and total device us per step (one decode step = one "
            "graph replay; prefill and attention entries were profiled eagerly)", "configs": []}


def profile_fn(fn, steps=3):
    """{kernel name: [count, total device us]} over `steps` calls of fn (CUDA activity only)."""
    from torch.profiler import profile, ProfilerActivity
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            fn()
        torch.cuda.synchronize()
    agg = {}
    for e in prof.events():
        if str(getattr(e, "device_type", "")).endswith("CUDA"):
            d = agg.setdefault(e.name, [0, 0.0])
            d[0] += 1
            d[1] += e.time_range.end - e.time_range.start
    return agg


def kernel_table(agg, steps):
    ks = sorted(agg.items(), key=lambda kv: -kv[1][1])
    return [dict(name=n, count_per_step=v[0] / steps, total_us_per_step=round(v[1] / steps, 2),
                 avg_us=round(v[1] / max(v[0], 1), 3)) for n, v in ks]


def save_profile(entry, seconds=None):
    kern = entry["kernels"]
    tot = sum(k["total_us_per_step"] for k in kern)
    entry["kernel_sum_us_per_step"] = round(tot, 1)
    entry["kernels_per_step"] = sum(k["count_per_step"] for k in kern)
    PROFILES["configs"].append(entry)
    with open(os.path.join(OUT, f"{TAG}_decode_kernels.json"), "w") as f:
        json.dump(PROFILES, f, indent=1)
    extra = f" vs {seconds*1e6:.0f} us timed graph" if seconds else ""
    log(f"  profile {entry.get('what')} ({entry['mode']}): {len(kern)} kernel names, "
        f"{tot:.0f} us kernel time/step{extra}")
    for k in kern[:10]:
        log(f"    {k['total_us_per_step']:9.1f} us  x{k['count_per_step']:6.1f}  {k['name'][:120]}")


def decode_one(m, B, L, extra=None, do_profile=False, record=True):
    c = m.c
    cap = cache_cap(L + 1)
    kvb = kv_read_bytes(c, B, cap)
    ok, free = fits(kvb + 4 * B * c["vocab"] * 2 + B * 64 * c["ffn"])
    if not ok:
        msg = f"decode {c['model']} B={B} L={L}: KV {kvb/2**30:.1f} GiB does not fit (free {free/2**30:.1f} GiB)"
        log("SKIP", msg)
        META["skipped"].append(msg)
        return None
    m.alloc_cache(B, cap)
    ids = torch.randint(0, c["vocab"], (B, 1), device=dev)
    cos, sin = m.rope_tables(L, 1)
    logits_eager = m.forward(ids, L, cos, sin).float()
    out = {}

    def step(i):
        out["y"] = m.forward(ids, L, cos, sin)

    # decode steps are ms long: one step per graph, many replays
    t = time_graph(step, iters=1, reps=15, warm=2)
    g = t[3]
    diff = ((out["y"].float() - logits_eager).norm() / logits_eager.norm()).item()
    finite = bool(torch.isfinite(out["y"]).all().item())
    wb = m.weight_bytes()
    kv_read = kv_read_bytes(c, B, L + 1)
    r = (rec if record else (lambda kind, **kw: dict(kind=kind, **kw)))("decode_step", model=c["model"], batch=B, context=L, layers=c["layers"], weights="bf16",
            kv="bf16", seconds=t[0], tmin=t[1], tmax=t[2], reps=15, attn_impl=ATTN_IMPL,
            cache_capacity=cap, weight_bytes=wb, kv_bytes_read=kv_read,
            graph_vs_eager_rel_diff=round(diff, 5), finite=finite, **(extra or {}))
    log(f"decode {c['model']} L{c['layers']} B={B:4d} ctx={L:5d}: {t[0]*1e3:8.3f} ms "
        f"(min {t[1]*1e3:.3f} max {t[2]*1e3:.3f})  eff {(wb + kv_read)/t[0]/1e12:.2f} TB/s  "
        f"graph/eager diff {diff:.1e} finite={finite}")
    if do_profile:
        try:
            steps = 3
            agg, mode = profile_fn(g.replay, steps), "graph_replay"
            if not agg:  # graph kernels not reported: fall back to eager steps
                agg, mode = profile_fn(lambda: m.forward(ids, L, cos, sin), steps), "eager"
            save_profile(dict(what="decode_step", model=c["model"], batch=B, context=L, layers=c["layers"],
                              mode=mode, steps=steps, graph_seconds=t[0], kernels=kernel_table(agg, steps)),
                         seconds=t[0])
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"section": "profile", "trace": tb[-3000:]})
            log("profile failed", tb)
    del g, out
    return r


@section("decode")
def decode_8b():
    global MODEL
    if MODEL is None:
        MODEL = Llama(CFG_8B)
    for B, L in DECODE_GRID:
        try:
            decode_one(MODEL, B, L)
        except torch.cuda.OutOfMemoryError:
            msg = f"decode llama3_8b B={B} L={L}: OOM"
            log("SKIP", msg)
            META["skipped"].append(msg)
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"section": f"decode B={B} L={L}", "trace": tb[-3000:]})
            log(f"ERROR decode B={B} L={L}:\n{tb}")
        MODEL.kc = MODEL.vc = None
        torch.cuda.empty_cache()
        flush()


# ----------------------------------------------------------------------------- prefill
PREFILL_GRID = [(1, 128), (1, 512), (1, 2048), (4, 512), (4, 2048), (16, 512)]


@section("prefill")
def prefill_8b():
    global MODEL
    if MODEL is None:
        MODEL = Llama(CFG_8B)
    m, c = MODEL, CFG_8B
    for B, P in PREFILL_GRID:
        try:
            cap = cache_cap(P)
            m.alloc_cache(B, cap)
            ids = torch.randint(0, c["vocab"], (B, P), device=dev)
            cos, sin = m.rope_tables(0, P)
            out = {}

            def step(i):
                out["y"] = m.forward(ids, 0, cos, sin)

            t = time_graph(step, iters=1, reps=10, warm=2)
            finite = bool(torch.isfinite(out["y"]).all().item())
            fl = 2.0 * B * P * (m.weight_bytes() / 2 - c["vocab"] * c["hidden"]) + 2.0 * B * c["vocab"] * c["hidden"]
            attn_fl = c["layers"] * 4.0 * B * c["heads"] * c["head_dim"] * P * (P + 1) / 2
            rec("prefill_step", model=c["model"], batch=B, prompt=P, layers=c["layers"], weights="bf16",
                kv="bf16", seconds=t[0], tmin=t[1], tmax=t[2], reps=10, attn_impl=ATTN_IMPL,
                cache_capacity=cap, linear_flops=fl, attn_flops=attn_fl, finite=finite)
            log(f"prefill B={B:3d} P={P:5d}: {t[0]*1e3:9.3f} ms  ({(fl + attn_fl)/t[0]/1e12:.0f} TFLOP/s) finite={finite}")
            del t, out
        except torch.cuda.OutOfMemoryError:
            msg = f"prefill llama3_8b B={B} P={P}: OOM"
            log("SKIP", msg)
            META["skipped"].append(msg)
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"section": f"prefill B={B} P={P}", "trace": tb[-3000:]})
            log(f"ERROR prefill B={B} P={P}:\n{tb}")
        m.kc = m.vc = None
        torch.cuda.empty_cache()
        flush()


@section("decode70b")
def decode_70b():
    global MODEL
    MODEL = None
    torch.cuda.empty_cache()
    m = Llama(CFG_70B)
    for B, L in [(1, 512), (16, 1024), (64, 1024)]:
        try:
            decode_one(m, B, L, extra=dict(truncated_from_layers=80))
        except torch.cuda.OutOfMemoryError:
            msg = f"decode llama3_70b B={B} L={L}: OOM"
            log("SKIP", msg)
            META["skipped"].append(msg)
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"section": f"decode70b B={B} L={L}", "trace": tb[-3000:]})
            log(f"ERROR decode70b B={B} L={L}:\n{tb}")
        m.kc = m.vc = None
        torch.cuda.empty_cache()
        flush()
    del m


# ----------------------------------------------------------------------------- attention
@section("attention")
def attention():
    global MODEL
    MODEL = None
    torch.cuda.empty_cache()
    H, KV, D = 32, 8, 128
    cases = []
    for B in [1, 8, 32, 128]:
        for kv in [512, 2048, 8192]:
            cases.append((B, 1, kv, False))
    for B in [1, 4]:
        for S in [512, 2048, 4096]:
            for causal in [True, False]:
                cases.append((B, S, S, causal))
    for B, q, kv, causal in cases:
        kv_bytes = 2 * B * KV * kv * D * 2
        if kv_bytes > 8e9:
            msg = f"attention B={B} q={q} kv={kv}: KV {kv_bytes/1e9:.1f} GB > 8 GB"
            log("SKIP", msg)
            META["skipped"].append(msg)
            continue
        qo_bytes = 2 * B * H * q * D * 2
        nb = nbuf_for(kv_bytes + qo_bytes)
        qs = [torch.randn(B, H, q, D, device=dev, dtype=BF) for _ in range(nb)]
        ks = [torch.randn(B, KV, kv, D, device=dev, dtype=BF) for _ in range(nb)]
        vs = [torch.randn(B, KV, kv, D, device=dev, dtype=BF) for _ in range(nb)]
        iters = max(20, nb)
        t = time_graph(lambda i: sdpa(qs[i % nb], ks[i % nb], vs[i % nb], causal), iters=iters, reps=7)
        # flops: QK^T and PV, 2 flops per MAC each -> 4*B*H*q*kv*D when every (query,key) pair is
        # computed.  Causal (only used with q == kv, top-left aligned): exactly q*(q+1)/2 pairs are
        # unmasked, so flops = 4*B*H*D*q*(q+1)/2.
        pairs = q * (q + 1) / 2 if causal else q * kv
        flops = 4.0 * B * H * D * pairs
        rec("attention", batch=B, heads=H, kv_heads=KV, head_dim=D, q_len=q, kv_len=kv, causal=causal,
            dtype="bf16", flops=flops, bytes=kv_bytes + qo_bytes, seconds=t[0], tmin=t[1], tmax=t[2],
            attn_impl=ATTN_IMPL, buffers=nb)
        log(f"attn B={B:4d} q={q:5d} kv={kv:5d} causal={int(causal)}: {t[0]*1e6:9.2f} us  "
            f"{(kv_bytes + qo_bytes)/t[0]/1e12:5.2f} TB/s  {flops/t[0]/1e12:6.1f} TFLOP/s  (nb={nb})")
        del qs, ks, vs, t
        torch.cuda.empty_cache()
        flush()


# ----------------------------------------------------------------------------- gemm
@section("gemm")
def gemm():
    global MODEL
    MODEL = None
    torch.cuda.empty_cache()
    for (N, K) in [(6144, 4096), (4096, 4096), (28672, 4096), (4096, 14336), (128256, 4096)]:
        for M in [1, 8, 32, 64, 128, 256]:
            esz = 2
            nb = nbuf_for(N * K * esz + M * K * esz)
            xs = [torch.randn(M, K, device=dev, dtype=BF) for _ in range(nb)]
            ws = [torch.empty(N, K, device=dev, dtype=BF).normal_(0, 0.02) for _ in range(nb)]
            outs = [torch.empty(M, N, device=dev, dtype=BF) for _ in range(nb)]
            iters = max(20, nb)
            t = time_graph(lambda i: torch.matmul(xs[i % nb], ws[i % nb].t(), out=outs[i % nb]), iters=iters)
            flops = 2.0 * M * N * K
            byts = (M * K + N * K + M * N) * esz
            rec("gemm", label="llama_proj", M=M, N=N, K=K, dtype="bf16", layout="x@W^T", seconds=t[0],
                flops=flops, bytes=byts)
            log(f"gemm M={M:4d} N={N:6d} K={K:5d}: {t[0]*1e6:9.2f} us  {byts/t[0]/1e12:5.2f} TB/s  "
                f"{flops/t[0]/1e12:6.1f} TFLOP/s (nb={nb})")
            del xs, ws, outs, t
        torch.cuda.empty_cache()
        flush()


# ----------------------------------------------------------------------------- elementwise
@section("elementwise")
def elementwise():
    D, FF, H, KV, HD = 4096, 14336, 32, 8, 128
    for T in [1, 32, 256]:
        x = torch.randn(T, D, device=dev, dtype=BF)
        y = torch.randn(T, D, device=dev, dtype=BF)
        w = torch.ones(D, device=dev, dtype=BF)
        nb = x.numel() * 2
        t = time_graph(lambda i: F.rms_norm(x, (D,), w, 1e-5))
        rec("rmsnorm", T=T, D=D, dtype="bf16", seconds=t[0], bytes=2 * nb)
        log(f"rmsnorm T={T}: {t[0]*1e6:.2f} us")
        t = time_graph(lambda i: x + y)
        rec("add", T=T, D=D, dtype="bf16", seconds=t[0], bytes=3 * nb)
        # silu(g)*u with g,u the two halves of the fused gate_up output, as in the decoder
        gu = torch.randn(T, 2 * FF, device=dev, dtype=BF)
        g, u = gu.split(FF, dim=-1)
        t = time_graph(lambda i: F.silu(g) * u)
        rec("silu_mul", T=T, D=FF, dtype="bf16", seconds=t[0], bytes=3 * T * FF * 2, impl="eager_silu_then_mul",
            kernels=2)
        log(f"silu_mul T={T}: {t[0]*1e6:.2f} us")
        # rope on q [T,32,128] and k [T,8,128] taken as views of the fused qkv output, HF rotate_half
        qkv = torch.randn(1, T, (H + 2 * KV) * HD, device=dev, dtype=BF)
        q = qkv[..., :H * HD].view(1, T, H, HD).transpose(1, 2)
        k = qkv[..., H * HD:(H + KV) * HD].view(1, T, KV, HD).transpose(1, 2)
        pos = torch.arange(T, device=dev, dtype=torch.float32)
        inv = 1.0 / (500000.0 ** (torch.arange(0, HD, 2, device=dev, dtype=torch.float32) / HD))
        e = torch.cat([torch.outer(pos, inv)] * 2, -1)
        cos, sin = e.cos().to(BF)[None, None], e.sin().to(BF)[None, None]
        t = time_graph(lambda i: (Llama.rope(q, cos, sin), Llama.rope(k, cos, sin)))
        rec("rope", T=T, heads=H, kv_heads=KV, head_dim=HD, dtype="bf16", seconds=t[0],
            bytes=2 * T * (H + KV) * HD * 2 + 2 * T * HD * 2, impl="eager_rotate_half_q_and_k", kernels=10)
        log(f"rope(q,k) T={T}: {t[0]*1e6:.2f} us")
        del x, y, gu, qkv


# ----------------------------------------------------------------------------- profile
@section("profile")
def profile_decode():
    """Kernel breakdown of three decode configs; run last so the profiler (CUPTI) cannot
    disturb any timed graph capture.  The step is re-timed here but not recorded again."""
    global MODEL
    if MODEL is None or MODEL.c["model"] != "llama3_8b":
        MODEL = None
        torch.cuda.empty_cache()
        MODEL = Llama(CFG_8B)
    for B, L in PROFILE_SET:
        decode_one(MODEL, B, L, do_profile=True, record=False)
        MODEL.kc = MODEL.vc = None
        torch.cuda.empty_cache()
    # which kernels one prefill step (B=1, P=512) and bare SDPA calls use (eager, 2 calls)
    c = CFG_8B
    MODEL.alloc_cache(1, 512)
    ids = torch.randint(0, c["vocab"], (1, 512), device=dev)
    cos, sin = MODEL.rope_tables(0, 512)
    MODEL.forward(ids, 0, cos, sin)
    agg = profile_fn(lambda: MODEL.forward(ids, 0, cos, sin), 2)
    save_profile(dict(what="prefill_step", model="llama3_8b", batch=1, prompt=512, layers=32, mode="eager",
                      steps=2, kernels=kernel_table(agg, 2)))
    MODEL = None
    torch.cuda.empty_cache()
    for B, q, kv, causal in [(8, 1, 2048, False), (128, 1, 8192, False), (1, 2048, 2048, True), (4, 4096, 4096, False)]:
        qq = torch.randn(B, 32, q, 128, device=dev, dtype=BF)
        kk = torch.randn(B, 8, kv, 128, device=dev, dtype=BF)
        vv = torch.randn(B, 8, kv, 128, device=dev, dtype=BF)
        sdpa(qq, kk, vv, causal)
        agg = profile_fn(lambda: sdpa(qq, kk, vv, causal), 2)
        save_profile(dict(what="attention", batch=B, heads=32, kv_heads=8, head_dim=128, q_len=q, kv_len=kv,
                          causal=causal, mode="eager", steps=2, kernels=kernel_table(agg, 2)))
        del qq, kk, vv


# ----------------------------------------------------------------------------- main
def summary():
    print("\n================ SUMMARY", TAG, DEVICE, NAME, "================")
    print("decode_step (ms):")
    for r in RECORDS:
        if r["kind"] == "decode_step":
            print(f"  {r['model']:10s} L{r['layers']:2d} B={r['batch']:4d} ctx={r['context']:5d}  "
                  f"{r['seconds']*1e3:8.3f}   eff {(r['weight_bytes'] + r['kv_bytes_read'])/r['seconds']/1e12:.2f} TB/s")
    print("prefill_step (ms):")
    for r in RECORDS:
        if r["kind"] == "prefill_step":
            print(f"  B={r['batch']:3d} P={r['prompt']:5d}  {r['seconds']*1e3:9.3f}")
    print("attention (us):")
    for r in RECORDS:
        if r["kind"] == "attention":
            print(f"  B={r['batch']:4d} q={r['q_len']:5d} kv={r['kv_len']:5d} c={int(r['causal'])}  "
                  f"{r['seconds']*1e6:9.2f}  {r['bytes']/r['seconds']/1e12:5.2f} TB/s {r['flops']/r['seconds']/1e12:6.1f} TF/s")
    print("gemm (us) rows M, cols (N,K):")
    gs = [r for r in RECORDS if r["kind"] == "gemm"]
    nks = sorted({(r["N"], r["K"]) for r in gs}, key=lambda x: (x[0] * x[1]))
    print("  M     " + " ".join(f"{n}x{k}".rjust(12) for n, k in nks))
    for M in sorted({r["M"] for r in gs}):
        row = {(r["N"], r["K"]): r["seconds"] for r in gs if r["M"] == M}
        print(f"  {M:4d}  " + " ".join(f"{row.get(nk, float('nan'))*1e6:12.2f}" for nk in nks))
    print("errors:", len(META["errors"]), " skipped:", META["skipped"])
    for e in META["errors"]:
        print(e["section"], e["trace"][-800:])


if __name__ == "__main__":
    smi_fields = ("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,"
                  "clocks.applications.graphics,power.limit,memory.total,pstate")
    info = smi(smi_fields) or smi("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit")
    rec("device", name=NAME, sms=props.multi_processor_count,
        l2_bytes=getattr(props, "L2_cache_size", None), mem_bytes=props.total_memory,
        torch=torch.__version__, cuda=torch.version.cuda,
        cudnn=torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        python=sys.version.split()[0], nvidia_smi=info)
    log("device", json.dumps(RECORDS[0]))
    # background clock/power sampler (our own child process; terminated at the end)
    sampler = None
    try:
        fields = "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu"
        if smi("clocks_event_reasons.active"):
            fields += ",clocks_event_reasons.active"
        sampler = subprocess.Popen(["nvidia-smi", f"--query-gpu={fields}", "--format=csv", "-lms", "1000"],
                                   stdout=open(os.path.join(OUT, f"{TAG}_smi.csv"), "w"),
                                   stderr=subprocess.DEVNULL)
    except Exception as e:  # noqa
        log("no nvidia-smi sampler:", e)
    ATTN_IMPL = _probe_gqa()
    flush()
    # bring clocks up before the first timed case (~1 s of large bf16 matmuls)
    a = torch.randn(8192, 8192, device=dev, dtype=BF)
    t0 = time.time()
    while time.time() - t0 < 1.0:
        for _ in range(10):
            a @ a
        torch.cuda.synchronize()
    del a
    torch.cuda.empty_cache()
    for fn in [decode_8b, prefill_8b, decode_70b, attention, gemm, elementwise, profile_decode]:
        fn()
    after = smi("clocks.sm,clocks.mem,power.draw,temperature.gpu")
    META["nvidia_smi_after"] = after
    if sampler is not None:
        sampler.terminate()
        try:
            sampler.wait(timeout=5)
        except Exception:  # noqa
            pass
        try:
            import csv
            rows = list(csv.reader(open(os.path.join(OUT, f"{TAG}_smi.csv"))))
            sm = [float(r[1].split()[0]) for r in rows[1:] if len(r) > 1 and r[1].strip().split()[0].replace('.', '').isdigit()]
            if sm:
                META["smi_sm_clock_mhz"] = dict(min=min(sm), median=statistics.median(sm), max=max(sm), n=len(sm))
        except Exception as e:  # noqa
            log("smi parse failed", e)
    flush()
    summary()
    log("total wall", round(time.time() - T_START, 1), "s")
