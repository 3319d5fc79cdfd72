"""Tensor-parallel (Megatron-style) Llama-3 decode step timings for hwsim.

Launch (device machine, repo root), one process per GPU:
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    torchrun --nproc_per_node=2 scripts/measure/measure_tp_decode.py OUTFILE
  --cpu: gloo on CPU, fp32, a tiny model (logic test only; checks that the TP=2 step gives
  the tp=1 step's logits).
  --nocomm: the same TP=2 shards and grid with the all_reduces and the logits all_gather left
  out (each rank returns its own [B, V/tp] logits); records carry variant "no_comm"; no tp=1
  and no comm-only cases. Time of the step's compute alone, for comparison.

The model is the `Llama` of measure_llm.py (same eager ops, bf16, random weights, static KV
cache, logits of the last token only), sharded over tp ranks:
  - embedding replicated (full [vocab, hidden] table on every rank);
  - per layer: rms_norm (replicated); fused QKV column-split (rank r holds query heads
    r*H/tp.. and KV heads r*KV/tp..); RoPE; cache write; SDPA over the local heads (GQA);
    o_proj row-split -> all_reduce(sum) -> residual add; rms_norm; fused gate_up column-split
    (rank r holds gate rows and up rows r*F/tp..); silu*mul; down row-split -> all_reduce ->
    residual add;
  - final rms_norm; LM head split by vocabulary (rank r: rows r*V/tp..); all_gather_into_tensor
    of the [B, V/tp] logits; then a permute+copy to [B, V].
  2*layers all_reduces of [B, hidden] bf16 and one all_gather per step.
Weights and KV cache are drawn from generators seeded per tensor (per layer, per KV head),
so the TP shards are exact slices of the tp=1 model: the tp=1 8B run on rank 0 checks that
TP=2 gives the same logits (record field `tp2_vs_tp1_rel_diff`).

Records (rank 0 appends one JSON per line to OUTFILE after every measurement):
  tp_decode_step  model, tp, batch, context, seconds, timing ("graph" | "eager"), tmin, tmax,
                  reps, seconds_per_rank, weight_bytes_per_rank, kv_bytes_read_per_rank,
                  allreduces, allreduce_bytes, finite
  tp_comm_only    model, tp, batch, what ("allreduces": the step's 2*layers all_reduces of
                  [B, hidden] bf16 back to back; "logits_all_gather": the one all_gather),
                  count, bytes_each, seconds (all of them), seconds_per_call, timing
Timing: warm-up (2 eager steps on a side stream), one step captured in a CUDA graph per rank,
ranks aligned by a barrier before each replay, each replay timed with CUDA events; 15 replays
(eager: 7 steps); median per rank; `seconds` = the larger of the ranks' medians.
"""
import datetime, json, math, os, statistics, sys, time, traceback
import torch
import torch.distributed as dist
import torch.nn.functional as F

CPU = "--cpu" in sys.argv
NOCOMM = "--nocomm" in sys.argv
ARGS = [a for a in sys.argv[1:] if a not in ("--cpu", "--nocomm")]
OUTFILE = ARGS[0] if ARGS else "tp_decode.jsonl"
DEVICE_ID = "h200_x2_nvlink"
T0 = time.time()

rank = int(os.environ.get("RANK", "0"))
local = int(os.environ.get("LOCAL_RANK", "0"))
if CPU:
    dev = torch.device("cpu")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=300))
    DT = torch.float32
else:
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    try:
        dist.init_process_group("nccl", device_id=dev, timeout=datetime.timedelta(seconds=300))
    except TypeError:
        dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=300))
    DT = torch.bfloat16
    torch.backends.cuda.matmul.allow_tf32 = False
WORLD = dist.get_world_size()

CFG_8B = dict(model="llama3_8b", layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128,
              ffn=14336, vocab=128256, theta=500000.0, eps=1e-5)
CFG_70B = dict(model="llama3_70b", layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128,
               ffn=28672, vocab=128256, theta=500000.0, eps=1e-5)
CFG_TINY = dict(model="tiny", layers=3, hidden=256, heads=8, kv_heads=4, head_dim=32,
                ffn=512, vocab=1000, theta=500000.0, eps=1e-5)


def log(*a):
    if rank == 0:
        print(f"[tp {time.time() - T0:6.1f}s]", *a, flush=True)


def emit(r):
    if rank == 0:
        with open(OUTFILE, "a") as f:
            f.write(json.dumps(r) + "\n")


def sync():
    if not CPU:
        torch.cuda.synchronize()


def gather_float(x):
    t = torch.tensor([float(x)], dtype=torch.float64, device=dev)
    out = [torch.zeros_like(t) for _ in range(WORLD)]
    dist.all_gather(out, t)
    return [o.item() for o in out]


# ----------------------------------------------------------------------------- ops
def rms_norm(x, w, eps):
    if hasattr(F, "rms_norm"):
        return F.rms_norm(x, (x.shape[-1],), w, eps)
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * w


def _sdpa_gqa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)


def _sdpa_rep(q, k, v):
    rep = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v)
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    return s.softmax(-1) @ v


def pick_sdpa():
    q = torch.randn(1, 4, 1, 8, device=dev, dtype=DT)
    k = torch.randn(1, 2, 5, 8, device=dev, dtype=DT)
    try:
        o = _sdpa_gqa(q, k, k)
        err = ((o.float() - _sdpa_rep(q, k, k).float()).norm() / o.float().norm()).item()
        assert err < 2e-2, err
        return "sdpa_enable_gqa", _sdpa_gqa
    except Exception:
        return "sdpa_repeat_interleave", _sdpa_rep


ATTN_IMPL, SDPA = pick_sdpa()


class TPLlama:
    """Llama-3 decoder shard for rank `r` of `tp` (tp=1: the whole model, no communication)."""

    def __init__(self, c, tp, r):
        self.c, self.tp, self.r = c, tp, r
        H, D, KV, hid, ffn, V = c["heads"], c["head_dim"], c["kv_heads"], c["hidden"], c["ffn"], c["vocab"]
        assert H % tp == 0 and KV % tp == 0 and ffn % tp == 0 and V % tp == 0
        self.H, self.KV, self.F, self.V = H // tp, KV // tp, ffn // tp, V // tp
        self.hq, self.hk = self.H * D, self.KV * D
        g = torch.Generator(device=dev)

        def full(seed, *shape, std=0.02):
            g.manual_seed(seed)
            return torch.empty(*shape, device=dev, dtype=DT).normal_(0.0, std, generator=g)

        self.emb = full(1, V, hid, std=1.0)
        lm = full(2, V, hid)
        self.lm_head = lm[r * self.V:(r + 1) * self.V].clone()
        del lm
        self.norm_f = torch.ones(hid, device=dev, dtype=DT)
        self.L = []
        for l in range(c["layers"]):
            s = 1000 * (l + 1)
            wqkv = full(s + 1, H * D + 2 * KV * D, hid)
            q0, k0, v0 = 0, H * D, H * D + KV * D
            wqkv_r = torch.cat([wqkv[q0 + r * self.hq:q0 + (r + 1) * self.hq],
                                wqkv[k0 + r * self.hk:k0 + (r + 1) * self.hk],
                                wqkv[v0 + r * self.hk:v0 + (r + 1) * self.hk]], 0).contiguous()
            del wqkv
            wo = full(s + 2, hid, H * D)
            wo_r = wo[:, r * self.hq:(r + 1) * self.hq].contiguous()
            del wo
            wgu = full(s + 3, 2 * ffn, hid)
            wgu_r = torch.cat([wgu[r * self.F:(r + 1) * self.F],
                               wgu[ffn + r * self.F:ffn + (r + 1) * self.F]], 0).contiguous()
            del wgu
            wd = full(s + 4, hid, ffn)
            wd_r = wd[:, r * self.F:(r + 1) * self.F].contiguous()
            del wd
            self.L.append(dict(ln1=torch.ones(hid, device=dev, dtype=DT), ln2=torch.ones(hid, device=dev, dtype=DT),
                               wqkv=wqkv_r, wo=wo_r, wgu=wgu_r, wd=wd_r))
        self.inv_freq = 1.0 / (c["theta"] ** (torch.arange(0, D, 2, device=dev, dtype=torch.float32) / D))
        self.kc = self.vc = self.cache = None
        self.gen = g

    def weight_bytes(self):
        n = sum(t.numel() for l in self.L for k, t in l.items() if k.startswith("w"))
        return (n + self.lm_head.numel()) * torch.tensor([], dtype=DT).element_size()

    def alloc_cache(self, B, cap):
        c = self.c
        self.kc = self.vc = self.cache = None
        if not CPU:
            torch.cuda.empty_cache()
        buf = torch.empty(c["layers"], 2, B, self.KV, cap, c["head_dim"], device=dev, dtype=DT)
        # random history, seeded per (layer, k/v, global KV head): identical for any tp
        for l in range(c["layers"]):
            for kv in range(2):
                for h in range(self.KV):
                    gh = self.r * self.KV + h
                    self.gen.manual_seed(10_000_000 + 100_000 * l + 1000 * kv + gh)
                    tmp = torch.empty(B, cap, c["head_dim"], device=dev, dtype=DT).normal_(generator=self.gen)
                    buf[l, kv, :, h].copy_(tmp)
        self.cache = buf
        self.kc = [buf[l, 0] for l in range(c["layers"])]
        self.vc = [buf[l, 1] for l in range(c["layers"])]
        return buf.numel() * buf.element_size()

    def rope_tables(self, start, T):
        pos = torch.arange(start, start + T, device=dev, dtype=torch.float32)
        f = torch.outer(pos, self.inv_freq)
        e = torch.cat([f, f], dim=-1)
        return e.cos().to(DT)[None, None], e.sin().to(DT)[None, None]

    @staticmethod
    def rope(x, cos, sin):
        h = x.shape[-1] // 2
        rot = torch.cat([-x[..., h:], x[..., :h]], dim=-1)
        return x * cos + rot * sin

    def allreduce(self, x):
        if self.tp > 1 and not NOCOMM:
            dist.all_reduce(x)
        return x

    def forward(self, ids, start, cos, sin, logits_out=None):
        """Decode step: ids [B,1] at position `start`; returns full logits [B, vocab]."""
        c = self.c
        B, T = ids.shape
        D, eps = c["head_dim"], c["eps"]
        h = F.embedding(ids, self.emb)
        for l, p in enumerate(self.L):
            x = rms_norm(h, p["ln1"], eps)
            qkv = F.linear(x, p["wqkv"])
            q = qkv[..., :self.hq].view(B, T, self.H, D).transpose(1, 2)
            k = qkv[..., self.hq:self.hq + self.hk].view(B, T, self.KV, D).transpose(1, 2)
            v = qkv[..., self.hq + self.hk:].view(B, T, self.KV, D).transpose(1, 2)
            q = self.rope(q, cos, sin)
            k = self.rope(k, cos, sin)
            self.kc[l][:, :, start:start + T] = k
            self.vc[l][:, :, start:start + T] = v
            o = SDPA(q, self.kc[l][:, :, :start + T], self.vc[l][:, :, :start + T])
            o = o.transpose(1, 2).reshape(B, T, self.hq)
            h = h + self.allreduce(F.linear(o, p["wo"]))
            x = rms_norm(h, p["ln2"], eps)
            gu = F.linear(x, p["wgu"])
            g, u = gu.split(self.F, dim=-1)
            h = h + self.allreduce(F.linear(F.silu(g) * u, p["wd"]))
        x = rms_norm(h[:, -1], self.norm_f, eps)
        part = F.linear(x, self.lm_head)  # [B, V/tp]
        if self.tp == 1 or NOCOMM:
            return part
        if logits_out is None:
            logits_out = torch.empty(self.tp * B, self.V, device=dev, dtype=DT)
        if CPU:
            dist.all_gather(list(logits_out.view(self.tp, B, self.V).unbind(0)), part.contiguous())
        else:
            dist.all_gather_into_tensor(logits_out, part.contiguous())
        return logits_out.view(self.tp, B, self.V).permute(1, 0, 2).reshape(B, self.tp * self.V)


def cache_cap(n):
    return ((n + 63) // 64) * 64


# ----------------------------------------------------------------------------- timing
def timed(fn, reps, graph, collective=True):
    """Median seconds of fn() per rank; graph: one fn() captured in a CUDA graph."""
    if CPU:
        graph = False
    ts = []
    if not CPU:
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                fn()
        torch.cuda.current_stream().wait_stream(s)
    else:
        fn()
    sync()
    g = None
    if graph:
        if collective:
            dist.barrier()
            time.sleep(0.2)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, capture_error_mode="thread_local"):
            fn()
        sync()
        g.replay()
        sync()
    for _ in range(reps):
        sync()
        if collective:
            dist.barrier()
        if CPU:
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
            continue
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        if g is not None:
            g.replay()
        else:
            fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) / 1e3)
    del g
    return statistics.median(ts), min(ts), max(ts)


def record_timing(kind, base, t, reps, timing, collective=True):
    per = gather_float(t[0]) if collective else [t[0]]
    mins = gather_float(t[1]) if collective else [t[1]]
    maxs = gather_float(t[2]) if collective else [t[2]]
    r = dict(kind=kind, device=DEVICE_ID, **base, seconds=max(per), tmin=min(mins), tmax=max(maxs),
             reps=reps, timing=timing, seconds_per_rank=per)
    emit(r)
    return r


# ----------------------------------------------------------------------------- cases
VALID = {}  # (model, B, ctx) -> tp2 logits on CPU (rank 0), for the tp=1 check


def decode_case(m, B, L, graph_too=True):
    c = m.c
    cap = cache_cap(L + 1)
    kvb = m.alloc_cache(B, cap)
    gi = torch.Generator(device=dev)
    gi.manual_seed(777 + B)
    ids = torch.randint(0, c["vocab"], (B, 1), device=dev, generator=gi)
    cos, sin = m.rope_tables(L, 1)
    coll = m.tp > 1
    out = {}
    logits_buf = torch.empty(m.tp * B, m.V, device=dev, dtype=DT) if coll else None

    def step():
        out["y"] = m.forward(ids, L, cos, sin, logits_buf)

    step()
    ref = out["y"].float().clone()
    key = (c["model"], B, L)
    extra = {}
    if m.tp > 1 and not NOCOMM:
        VALID[key] = ref.cpu()
    elif key in VALID:
        d = ((ref.cpu() - VALID[key]).norm() / VALID[key].norm()).item()
        extra["tp2_vs_tp1_rel_diff"] = float(f"{d:.3e}")
    es = torch.tensor([], dtype=DT).element_size()
    kv_read = c["layers"] * 2 * B * m.KV * (L + 1) * c["head_dim"] * es
    base = dict(model=c["model"], tp=m.tp, batch=B, context=L, layers=c["layers"], weights=str(DT).split(".")[-1],
                attn_impl=ATTN_IMPL, cache_capacity=cap, weight_bytes_per_rank=m.weight_bytes(),
                kv_bytes_read_per_rank=kv_read, allreduces=2 * c["layers"] if coll else 0,
                allreduce_bytes=B * c["hidden"] * es if coll else 0,
                logits_all_gather_bytes=m.tp * B * m.V * es if coll else 0,
                finite=bool(torch.isfinite(ref).all().item()), **extra)
    if NOCOMM:
        base.update(variant="no_comm", allreduces=0, logits_all_gather_bytes=0)
    timings = [("eager", False, 7)] + ([("graph", True, 15)] if graph_too and not CPU else [])
    for name, graph, reps in timings:
        t = timed(step, reps, graph, collective=coll)
        b2 = dict(base)
        if name == "graph":
            b2["graph_vs_eager_rel_diff"] = float(f"{((out['y'].float() - ref).norm() / ref.norm()).item():.3e}")
        r = record_timing("tp_decode_step", b2, t, reps, name, collective=coll)
        log(f"{c['model']} tp={m.tp} B={B:3d} ctx={L:5d} {name:5s}: {r['seconds']*1e3:8.3f} ms "
            f"(ranks {[round(x*1e3, 3) for x in r['seconds_per_rank']]}) {extra}")
    del out, logits_buf
    return kvb


def comm_only(c, B, tp):
    es = torch.tensor([], dtype=DT).element_size()
    nar = 2 * c["layers"]
    x = torch.randn(B, 1, c["hidden"], device=dev, dtype=DT)
    V = c["vocab"] // tp
    part = torch.randn(B, V, device=dev, dtype=DT)
    lo = torch.empty(tp * B, V, device=dev, dtype=DT)

    def ars():
        for _ in range(nar):
            dist.all_reduce(x)

    def ag():
        if CPU:
            dist.all_gather(list(lo.view(tp, B, V).unbind(0)), part)
        else:
            dist.all_gather_into_tensor(lo, part)

    for what, fn, cnt, nb in [("allreduces", ars, nar, B * c["hidden"] * es),
                              ("logits_all_gather", ag, 1, tp * B * V * es)]:
        for name, graph in ([("eager", False)] + ([] if CPU else [("graph", True)])):
            x.normal_()  # values grow x2 per sum: restart from random
            t = timed(fn, 15, graph)
            r = record_timing("tp_comm_only", dict(model=c["model"], tp=tp, batch=B, what=what, count=cnt,
                                                   bytes_each=nb), t, 15, name)
            r2 = dict(r, seconds_per_call=r["seconds"] / cnt)
            log(f"  comm {c['model']} B={B:3d} {what:18s} x{cnt:3d} {nb:>9d} B {name:5s}: "
                f"{r['seconds']*1e3:8.3f} ms total, {r2['seconds_per_call']*1e6:7.2f} us/call")


def guarded(label, f, *a):
    try:
        return f(*a)
    except Exception:
        tb = traceback.format_exc()
        log(f"ERROR {label}:\n{tb}")
        emit(dict(kind="tp_error", device=DEVICE_ID, what=label, trace=tb[-2000:]))
        return None


def main():
    if CPU:
        plans = [(CFG_TINY, [(1, 16), (3, 40)], [(1, 16), (3, 40)])]
    else:
        plans = [(CFG_8B, [(1, 512), (1, 2048), (8, 512), (8, 2048), (32, 512), (32, 2048)],
                  [(1, 512), (1, 2048), (8, 512), (8, 2048), (32, 512), (32, 2048)]),
                 (CFG_70B, [(1, 512), (1, 2048), (8, 512), (8, 2048)], [])]
    log(f"world={WORLD} attn_impl={ATTN_IMPL} dtype={DT}")
    if rank == 0 and not CPU:
        emit(dict(kind="device", device=DEVICE_ID, torch=torch.__version__, cuda=torch.version.cuda,
                  nccl=".".join(map(str, torch.cuda.nccl.version())), gpus=[torch.cuda.get_device_name(i)
                  for i in range(torch.cuda.device_count())], attn_impl=ATTN_IMPL,
                  env={k: os.environ.get(k) for k in ["NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST",
                                                      "NVSHMEM_DISABLE_NVLS", "NCCL_ALGO", "NCCL_PROTO"]}))
    for c, grid_tp, grid_tp1 in plans:
        t0 = time.time()
        m = guarded(f"build {c['model']} tp={WORLD}", TPLlama, c, WORLD, rank)
        if m is None:
            continue
        sync()
        log(f"built {c['model']} tp={WORLD}: {m.weight_bytes()/1e9:.2f} GB weights per rank, {time.time()-t0:.1f}s")
        for B, L in grid_tp:
            guarded(f"decode {c['model']} tp={WORLD} B={B} ctx={L}", decode_case, m, B, L)
        del m
        if not CPU:
            torch.cuda.empty_cache()
        if NOCOMM:
            continue
        for B in sorted(set(b for b, _ in grid_tp)):
            guarded(f"comm {c['model']} B={B}", comm_only, c, B, WORLD)
        if grid_tp1:
            dist.barrier()
            if rank == 0:  # tp=1 on GPU 0 alone (rank 1 waits at the barrier)
                m1 = guarded(f"build {c['model']} tp=1", TPLlama, c, 1, 0)
                if m1 is not None:
                    log(f"built {c['model']} tp=1: {m1.weight_bytes()/1e9:.2f} GB weights")
                    for B, L in grid_tp1:
                        guarded(f"decode {c['model']} tp=1 B={B} ctx={L}", decode_case, m1, B, L)
                del m1
                if not CPU:
                    torch.cuda.empty_cache()
            dist.barrier()
    sync()
    dist.barrier()
    log(f"done in {time.time() - T0:.1f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
