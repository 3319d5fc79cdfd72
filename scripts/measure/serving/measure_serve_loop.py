"""A continuous-batching serving loop in PyTorch, measured step by step (issue 36).

Usage (on the device machine):  python3 measure_serve_loop.py TAG [run,run,...]
Writes $OUT/TAG.jsonl (run metadata, one serve_trace record per run, the attention probe),
$OUT/TAG_steps.jsonl (one serve_loop_step record per engine step), $OUT/TAG_requests.jsonl
(each request's arrival, lengths, first-token and finish times) and $OUT/TAG_smi.csv
(nvidia-smi samples), each rewritten after every run so a timeout still leaves data.

What runs: Llama-3-8B shapes (32 layers, hidden 4096, 32 heads, 8 KV heads, head_dim 128,
FFN 14336, vocabulary 128256), random bf16 weights, PyTorch ops (fused QKV and gate/up weights,
F.rms_norm, rotate-half RoPE gathered by position, F.silu * up), a paged KV cache ([blocks, 16,
kv_heads, head_dim] per layer and K/V; a block table per sequence; new K/V written by slot with
index_copy_), attention by a Triton kernel over the whole mixed batch through the block table
(vLLM V1's Triton "unified attention" design: a program per 16 query tokens x one KV head's 4
query heads, keys in tiles of 64, bottom-right causal, online softmax), the LM head over each
scheduled sequence's last token, and greedy sampling (argmax) on the GPU. The probe at the start
checks the attention against an fp32 reference and falls back, if the kernel fails, to gathering
each sequence's blocks into contiguous K/V for PyTorch's FlashAttention-2 varlen_attn (PyTorch
2.11's varlen_attn takes no block table) or SDPA; those run without graphs.

The scheduler is vLLM V1's (Scheduler.schedule, chunked prefill on): a token budget per step
(max_num_batched_tokens 2048) and max_num_seqs 256; running requests first in admission order
(a prefilling one gets min(remaining prompt, budget), a decoding one 1 token), then waiting
requests first-come-first-served while the budget and the free blocks allow; a request's first
output token comes from the step that completes its prompt; outputs run to their length (the
benchmark's ignore_eos). Inputs are prepared as vLLM V1's GPUModelRunner does: NumPy over a
persistent host block table (a row per request, a block id written when it is allocated) into
pinned staging buffers, one non-blocking copy each. Every step replays a CUDA graph captured for
its padded shape (tokens, sequences: the smallest capture size >= each; padded tokens write to a
reserved garbage block, padded sequences have no tokens), captured in a warm-up pass of the same
trace, so the measured pass replays only (a step that still had to capture is flagged and left
out of the step statistics). Detokenisation is not done (random weights; vLLM V1 detokenises in
its front-end process, off the engine's critical path).

Per step: host times (perf_counter) of scheduling, input preparation, launching (graph replay or
eager ops), waiting for the sampled tokens (.tolist(): the step's one host sync) and the
bookkeeping after it; GPU times between CUDA events around the forward (ev0 -> ev1) and the
sampling (ev1 -> ev2; inside the graph, so 0). wall_s is the step from the start of scheduling to
the end of its bookkeeping; host_s = wall_s - gpu_s is what the engine's host side adds to the
step (the GPU is idle for about that long).

Traces: benchmark_serving's shape (prompt 100, output 200) at concurrency 1, 2, 4, 8 (each a
wave of C requests at t=0 into an empty engine, repeated), Poisson runs, a burst, long prompts.
"""
import collections, inspect, json, math, os, random, statistics, subprocess, sys, threading, time, traceback
import numpy as np
import torch
import torch.nn.functional as F

OUT = os.environ.get("OUT", ".")
TAG = sys.argv[1] if len(sys.argv) > 1 else "serve"
ONLY = sys.argv[2].split(",") if len(sys.argv) > 2 else None
dev = torch.device("cuda")
torch.backends.cuda.matmul.allow_tf32 = False
BF = torch.bfloat16
T0 = time.time()
NAME = torch.cuda.get_device_properties(0).name
DEVICE = ("h200_nvl" if "NVL" in NAME.upper() else "h200_sxm") if "H200" in NAME.upper() else NAME.lower().replace(" ", "_")

CFG = dict(model="llama3_8b", layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336,
           vocab=128256, theta=500000.0, eps=1e-5)
MAX_TOKENS = 2048       # vLLM max_num_batched_tokens
MAX_SEQS = 256          # vLLM max_num_seqs
MAX_MODEL_LEN = 4096
CAPTURE_SIZES = [1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256]
SEQ_SIZES = CAPTURE_SIZES
TOK_SIZES = CAPTURE_SIZES + [320, 384, 448, 512, 640, 768, 896, 1024, 1280, 1536, 1792, 2048]
GRAPHS = {}
GRAPH_POOL = [None]
PREP = ["numpy"]   # input preparation: numpy over a persistent block table (vLLM V1), or Python lists
KV_BUDGET_BYTES = 24 << 30

RECORDS, STEPS, REQS = [], [], []
META = dict(kind="serve_run_meta", errors=[], run_s={})


def log(*a):
    print(f"[{TAG} {time.time() - T0:6.1f}s]", *a, flush=True)


def flush():
    with open(os.path.join(OUT, f"{TAG}.jsonl"), "w") as f:
        for r in [META] + RECORDS:
            f.write(json.dumps(r) + "\n")
    with open(os.path.join(OUT, f"{TAG}_steps.jsonl"), "w") as f:
        for r in STEPS:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    with open(os.path.join(OUT, f"{TAG}_requests.jsonl"), "w") as f:
        for r in REQS:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


class Smi(threading.Thread):
    fields = "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,memory.used"

    def __init__(self):
        super().__init__(daemon=True)
        self.stop = False
        self.f = open(os.path.join(OUT, f"{TAG}_smi.csv"), "w")
        self.f.write(self.fields + "\n")

    def run(self):
        while not self.stop:
            try:
                p = subprocess.run(["nvidia-smi", f"--query-gpu={self.fields}", "--format=csv,noheader,nounits"],
                                   capture_output=True, text=True, timeout=10)
                self.f.write(p.stdout.strip().split("\n")[0] + "\n")
                self.f.flush()
            except Exception:
                pass
            time.sleep(1.0)


def smi_once(q):
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"], capture_output=True,
                              text=True, timeout=20).stdout.strip()
    except Exception as e:  # noqa
        return str(e)


# ----------------------------------------------------------------------------- attention paths
try:
    from torch.nn.attention.varlen import varlen_attn
    VARLEN_PARAMS = set(inspect.signature(varlen_attn).parameters)
except Exception as e:  # noqa
    varlen_attn, VARLEN_PARAMS = None, set()

ATTN = dict(path=None, block=16)
BLOCK_Q, BLOCK_N = 16, 64

try:
    import triton
    import triton.language as tl

    @triton.jit
    def unified_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, qsl_ptr, seqlen_ptr, bt_ptr, num_seqs, scale,
                                 stride_bt, BLK: tl.constexpr, G: tl.constexpr, D: tl.constexpr, KVH: tl.constexpr,
                                 BLOCK_Q: tl.constexpr, BLOCK_N: tl.constexpr, SEQ_POW2: tl.constexpr):
        """Paged attention over a mixed batch (vLLM V1's Triton 'unified attention' design): program
        (tile, kv head) takes BLOCK_Q query tokens of one sequence times the G query heads of the KV
        head; keys through the block table, bottom-right causal, online softmax."""
        pid = tl.program_id(0)
        kvh = tl.program_id(1)
        offs_s = tl.arange(0, SEQ_POW2)
        qsl = tl.load(qsl_ptr + offs_s, mask=offs_s < num_seqs, other=1 << 30)
        tstart = qsl // BLOCK_Q + offs_s
        seq = tl.sum((tstart <= pid).to(tl.int32), axis=0) - 1
        q_start = tl.load(qsl_ptr + seq)
        q_len = tl.load(qsl_ptr + seq + 1) - q_start
        q0 = (pid - (q_start // BLOCK_Q + seq)) * BLOCK_Q
        if q0 < q_len:
            seq_len = tl.load(seqlen_ptr + seq)
            before = seq_len - q_len
            offs_m = tl.arange(0, BLOCK_Q * G)
            tok = q0 + offs_m // G
            head = kvh * G + offs_m % G
            row_ok = tok < q_len
            offs_d = tl.arange(0, D)
            qrow = ((q_start + tok).to(tl.int64) * (KVH * G) + head) * D
            q = tl.load(q_ptr + qrow[:, None] + offs_d[None, :], mask=row_ok[:, None], other=0.0)
            m_i = tl.full([BLOCK_Q * G], float("-inf"), tl.float32)
            l_i = tl.zeros([BLOCK_Q * G], tl.float32)
            acc = tl.zeros([BLOCK_Q * G, D], tl.float32)
            kv_end = tl.minimum(seq_len, before + q0 + BLOCK_Q)
            for start in range(0, kv_end, BLOCK_N):
                offs_n = start + tl.arange(0, BLOCK_N)
                n_ok = offs_n < kv_end
                page = tl.load(bt_ptr + seq * stride_bt + offs_n // BLK, mask=n_ok, other=0)
                slot = page.to(tl.int64) * BLK + offs_n % BLK
                kv_off = (slot * KVH + kvh) * D
                k = tl.load(k_ptr + kv_off[None, :] + offs_d[:, None], mask=n_ok[None, :], other=0.0)
                sc = tl.dot(q, k) * scale
                ok = (offs_n[None, :] <= (before + tok)[:, None]) & n_ok[None, :]
                sc = tl.where(ok, sc, float("-inf"))
                m_new = tl.maximum(m_i, tl.max(sc, 1))
                alpha = tl.exp(m_i - m_new)
                p = tl.exp(sc - m_new[:, None])
                l_i = l_i * alpha + tl.sum(p, 1)
                v = tl.load(v_ptr + kv_off[:, None] + offs_d[None, :], mask=n_ok[:, None], other=0.0)
                acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
                m_i = m_new
            out = acc / l_i[:, None]
            tl.store(o_ptr + qrow[:, None] + offs_d[None, :], out.to(o_ptr.dtype.element_ty), mask=row_ok[:, None])
    HAVE_TRITON = True
except Exception as e:  # noqa
    HAVE_TRITON = repr(e)


def triton_attention(q, kc, vc, b):
    T, H, D = q.shape
    KV = kc.shape[2]
    S = b["num_seqs"]
    o = torch.empty_like(q)
    grid = (T // BLOCK_Q + S, KV)
    unified_attention_kernel[grid](q, kc, vc, o, b["cu_q"], b["seq_lens"], b["block_table"], S, 1.0 / math.sqrt(D),
                                   b["block_table"].stride(0), BLK=kc.shape[1], G=H // KV, D=D, KVH=KV,
                                   BLOCK_Q=BLOCK_Q, BLOCK_N=BLOCK_N, SEQ_POW2=max(16, triton.next_power_of_2(S + 1)),
                                   num_warps=4, num_stages=2)
    return o


def causal_kw():
    if "is_causal" in VARLEN_PARAMS:
        return dict(is_causal=True)
    if "window_size" in VARLEN_PARAMS:
        return dict(window_size=(-1, 0))
    return {}


def gqa_kw():
    return dict(enable_gqa=True) if "enable_gqa" in VARLEN_PARAMS else {}


def attention(q, kc, vc, b):
    """q [T,H,D]; kc/vc [blocks, block, KV, D]; b: the step's batch tensors. Returns [T,H,D]."""
    if ATTN["path"] == "triton_paged":
        return triton_attention(q, kc, vc, b)
    if ATTN["path"] == "varlen_paged":
        used = dict(seqused_k=b["seq_lens"]) if "seqused_k" in VARLEN_PARAMS else {}
        return varlen_attn(q, kc, vc, b["cu_q"], b["cu_k"], b["max_q"], b["max_k"], block_table=b["block_table"],
                           **used, **causal_kw(), **gqa_kw())
    # gather: each sequence's keys made contiguous through its slots
    KV, D = kc.shape[2], kc.shape[3]
    k = kc.view(-1, KV, D).index_select(0, b["gather"])
    v = vc.view(-1, KV, D).index_select(0, b["gather"])
    if ATTN["path"] == "varlen_gather":
        if not gqa_kw():
            rep = q.shape[1] // KV
            k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
        return varlen_attn(q, k, v, b["cu_q"], b["cu_k"], b["max_q"], b["max_k"], **causal_kw(), **gqa_kw())
    # sdpa_gather: one SDPA call per sequence (bottom-right causal mask)
    outs = []
    for i, (qs, qe, ks, ke) in enumerate(b["spans"]):
        qi = q[qs:qe].transpose(0, 1)[None]
        ki, vi = k[ks:ke].transpose(0, 1)[None], v[ks:ke].transpose(0, 1)[None]
        ql, kl = qe - qs, ke - ks
        mask = None
        if ql > 1:
            mask = torch.ones(ql, kl, dtype=torch.bool, device=dev).tril(kl - ql)
        outs.append(F.scaled_dot_product_attention(qi, ki, vi, attn_mask=mask, enable_gqa=True)[0].transpose(0, 1))
    return torch.cat(outs, 0)


def reference_attention(q, kc, vc, tables, ctx, qlens):
    outs, qs = [], 0
    KV, D, blk = kc.shape[2], kc.shape[3], kc.shape[1]
    for tab, L, ql in zip(tables, ctx, qlens):
        slots = torch.tensor([tab[p // blk] * blk + p % blk for p in range(L)], device=dev)
        k = kc.view(-1, KV, D)[slots].float().transpose(0, 1)
        v = vc.view(-1, KV, D)[slots].float().transpose(0, 1)
        rep = q.shape[1] // KV
        k, v = k.repeat_interleave(rep, 0), v.repeat_interleave(rep, 0)
        qi = q[qs:qs + ql].float().transpose(0, 1)
        s = qi @ k.transpose(1, 2) / math.sqrt(D)
        mask = torch.ones(ql, L, dtype=torch.bool, device=dev).tril(L - ql)
        s = s.masked_fill(~mask, float("-inf"))
        outs.append((s.softmax(-1) @ v).transpose(0, 1))
        qs += ql
    return torch.cat(outs, 0)


def probe_attention():
    """First path whose output matches the fp32 reference on a mixed batch (decodes + chunks)."""
    H, KV, D = CFG["heads"], CFG["kv_heads"], CFG["head_dim"]
    tried = []
    cands = [("triton_paged", 16)] if HAVE_TRITON is True else []
    if HAVE_TRITON is not True:
        tried.append(dict(path="triton_paged", error=str(HAVE_TRITON)[:400]))
    if varlen_attn is not None and "block_table" in VARLEN_PARAMS:
        cands += [("varlen_paged", 16), ("varlen_paged", 256)]
    if varlen_attn is not None:
        cands += [("varlen_gather", 16)]
    cands += [("sdpa_gather", 16)]
    for path, blk in cands:
        try:
            ATTN.update(path=path, block=blk)
            nblk = 64 if blk == 16 else 8
            kc = torch.randn(nblk, blk, KV, D, device=dev, dtype=BF)
            vc = torch.randn(nblk, blk, KV, D, device=dev, dtype=BF)
            ctx, qlens = [37, 130, 5, 200], [1, 1, 5, 64]   # two decodes, a first chunk, a later chunk
            perm = torch.randperm(nblk - 1).tolist()
            tables, used = [], 1
            for L in ctx:
                n = -(-L // blk)
                tables.append([p + 1 for p in perm[used - 1:used - 1 + n]])
                used += n
            q = torch.randn(sum(qlens), H, D, device=dev, dtype=BF)
            b = batch_tensors(tables, ctx, qlens, blk)
            out = attention(q, kc, vc, b)
            ref = reference_attention(q, kc, vc, tables, ctx, qlens)
            err = ((out.float() - ref).norm() / ref.norm()).item()
            ok = bool(torch.isfinite(out).all().item()) and err < 2e-2
            tried.append(dict(path=path, block=blk, rel_err=err, ok=ok))
            log(f"attention probe {path} block {blk}: rel err {err:.2e} ok={ok}")
            if ok:
                return tried
        except Exception as e:  # noqa
            tried.append(dict(path=path, block=blk, error=repr(e)[:400]))
            log(f"attention probe {path} block {blk} failed: {repr(e)[:300]}")
    raise RuntimeError(f"no attention path works: {tried}")


def batch_tensors(tables, ctx, qlens, blk, pad_to=None, max_k=None, to_device=True):
    """The step's attention inputs (device tensors) for sequences with block tables `tables`,
    `ctx` keys each (new tokens included) and `qlens` new tokens each."""
    n = len(ctx)
    N = pad_to or n
    maxb = max(len(t) for t in tables)
    if pad_to:
        maxb = -(-MAX_MODEL_LEN // blk)
    bt = torch.zeros(N, maxb, dtype=torch.int32)
    for i, t in enumerate(tables):
        bt[i, :len(t)] = torch.tensor(t, dtype=torch.int32)
    # padding rows (graphs): the triton path gives them no query tokens and no keys; the
    # other paths one token on the garbage block
    zero = ATTN["path"] == "triton_paged"
    ctx_p = list(ctx) + [0 if zero else 1] * (N - n)
    q_p = list(qlens) + [0 if zero else 1] * (N - n)
    cu_q = [0]
    cu_k = [0]
    for a, c in zip(q_p, ctx_p):
        cu_q.append(cu_q[-1] + a)
        cu_k.append(cu_k[-1] + c)
    b = dict(cu_q=torch.tensor(cu_q, dtype=torch.int32), cu_k=torch.tensor(cu_k, dtype=torch.int32),
             seq_lens=torch.tensor(ctx_p, dtype=torch.int32), block_table=bt,
             max_q=max(q_p), max_k=max_k or max(ctx_p), num_seqs=N)
    if ATTN["path"] != "varlen_paged":
        g = []
        spans = []
        qs = ks = 0
        tabs = list(tables) + [[0]] * (N - n)
        for t, c, ql in zip(tabs, ctx_p, q_p):
            g += [t[p // blk] * blk + p % blk for p in range(c)]
            spans.append((qs, qs + ql, ks, ks + c))
            qs += ql
            ks += c
        b["gather"] = torch.tensor(g, dtype=torch.int64)
        b["spans"] = spans
    if not to_device:   # pinned host tensors, for copying into a graph's static inputs
        return {k: (v.pin_memory() if torch.is_tensor(v) else v) for k, v in b.items()}
    return {k: (v.pin_memory().to(dev, non_blocking=True) if torch.is_tensor(v) else v) for k, v in b.items()}


# ----------------------------------------------------------------------------- model
class Llama:
    def __init__(self, c, num_blocks, blk):
        self.c = c
        H, D, KV, hid, ffn = c["heads"], c["head_dim"], c["kv_heads"], c["hidden"], c["ffn"]
        self.hq, self.hk = H * D, KV * D

        def w(*shape, std=0.02):
            return torch.empty(*shape, device=dev, dtype=BF).normal_(0.0, std)

        self.emb = w(c["vocab"], hid, std=1.0)
        self.lm_head = w(c["vocab"], hid)
        self.norm_f = torch.ones(hid, device=dev, dtype=BF)
        self.L = [dict(ln1=torch.ones(hid, device=dev, dtype=BF), ln2=torch.ones(hid, device=dev, dtype=BF),
                       wqkv=w(self.hq + 2 * self.hk, hid), wo=w(hid, self.hq), wgu=w(2 * ffn, hid), wd=w(hid, ffn))
                  for _ in range(c["layers"])]
        inv = 1.0 / (c["theta"] ** (torch.arange(0, D, 2, device=dev, dtype=torch.float32) / D))
        f = torch.outer(torch.arange(MAX_MODEL_LEN + 1, device=dev, dtype=torch.float32), inv)
        e = torch.cat([f, f], -1)
        self.cos, self.sin = e.cos().to(BF), e.sin().to(BF)
        self.kc = [torch.randn(num_blocks, blk, KV, D, device=dev, dtype=BF) for _ in range(c["layers"])]
        self.vc = [torch.randn(num_blocks, blk, KV, D, device=dev, dtype=BF) for _ in range(c["layers"])]

    @staticmethod
    def rope(x, cos, sin):  # x [T, h, D]; cos/sin [T, 1, D]
        h = x.shape[-1] // 2
        return x * cos + torch.cat([-x[..., h:], x[..., :h]], -1) * sin

    def forward(self, ids, pos, slots, last, b):
        c = self.c
        T = ids.shape[0]
        H, KV, D, hid, eps = c["heads"], c["kv_heads"], c["head_dim"], c["hidden"], c["eps"]
        cos, sin = self.cos[pos][:, None], self.sin[pos][:, None]
        h = F.embedding(ids, self.emb)
        for l, p in enumerate(self.L):
            x = F.rms_norm(h, (hid,), p["ln1"], eps)
            qkv = F.linear(x, p["wqkv"])
            q = self.rope(qkv[:, :self.hq].view(T, H, D), cos, sin)
            k = self.rope(qkv[:, self.hq:self.hq + self.hk].view(T, KV, D), cos, sin)
            v = qkv[:, self.hq + self.hk:].view(T, KV, D)
            self.kc[l].view(-1, KV, D).index_copy_(0, slots, k)
            self.vc[l].view(-1, KV, D).index_copy_(0, slots, v)
            o = attention(q, self.kc[l], self.vc[l], b).reshape(T, self.hq)
            h = h + F.linear(o, p["wo"])
            x = F.rms_norm(h, (hid,), p["ln2"], eps)
            g, u = F.linear(x, p["wgu"]).split(c["ffn"], -1)
            h = h + F.linear(F.silu(g) * u, p["wd"])
        x = F.rms_norm(h.index_select(0, last), (hid,), self.norm_f, eps)
        return F.linear(x, self.lm_head)


# ----------------------------------------------------------------------------- engine
class Req:
    __slots__ = ("rid", "arrival", "prompt", "output", "computed", "generated", "blocks", "first", "finish",
                 "token_times", "admitted", "row")

    def __init__(self, rid, arrival, prompt, output):
        self.rid, self.arrival, self.prompt, self.output = rid, arrival, prompt, output
        self.computed = 0       # tokens whose KV is in the cache
        self.generated = 0
        self.blocks = []
        self.first = self.finish = None
        self.token_times = []
        self.admitted = None
        self.row = None


class Engine:
    def __init__(self, model, num_blocks, blk, graphs=True):
        self.m, self.blk = model, blk
        self.free = collections.deque(range(1, num_blocks))   # block 0: garbage for padded rows
        self.use_graphs = graphs
        self.graphs = GRAPHS   # (tokens, sequences) -> (graph, static inputs); shared by every run
        self.captured_now = 0
        # vLLM V1's InputBatch: a persistent host block table (a row per request slot, a block
        # id written when the request gets it) and pinned staging buffers reused every step
        self.maxb = -(-MAX_MODEL_LEN // blk)
        self.free_rows = list(range(MAX_SEQS - 1, -1, -1))
        self.bt_np = np.zeros((MAX_SEQS, self.maxb), np.int32)
        self.stage = {k: torch.zeros(n, dtype=dt).pin_memory() for k, n, dt in (
            ("ids", MAX_TOKENS, torch.int64), ("pos", MAX_TOKENS, torch.int64), ("slots", MAX_TOKENS, torch.int64),
            ("last", MAX_SEQS, torch.int64), ("cu_q", MAX_SEQS + 1, torch.int32), ("seq_lens", MAX_SEQS, torch.int32))}
        self.stage["block_table"] = torch.zeros(MAX_SEQS, self.maxb, dtype=torch.int32).pin_memory()
        self.np = {k: v.numpy() for k, v in self.stage.items()}

    def give_block(self, r):
        bid = self.free.popleft()
        if r.row is None:
            r.row = self.free_rows.pop()
        self.bt_np[r.row, len(r.blocks)] = bid
        r.blocks.append(bid)

    def release(self, r):
        self.free.extend(r.blocks)
        r.blocks = []
        if r.row is not None:
            self.free_rows.append(r.row)
            r.row = None

    # -- CUDA graphs: one per padded shape (tokens, sequences), captured the first time it is needed
    def capture(self, T, S):
        t = time.time()
        blk = self.blk
        b = batch_tensors([[0]] * S, [1] * S, [1] * S, blk, pad_to=S, max_k=MAX_MODEL_LEN)
        st = dict(ids=torch.zeros(T, dtype=torch.int64, device=dev), pos=torch.zeros(T, dtype=torch.int64, device=dev),
                  slots=torch.zeros(T, dtype=torch.int64, device=dev), last=torch.arange(S, device=dev), b=b)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                self.m.forward(st["ids"], st["pos"], st["slots"], st["last"], b).argmax(-1)
        torch.cuda.current_stream().wait_stream(s)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, pool=GRAPH_POOL[0]):
            st["out"] = self.m.forward(st["ids"], st["pos"], st["slots"], st["last"], b).argmax(-1)
        torch.cuda.synchronize()
        self.graphs[(T, S)] = (g, st)
        self.captured_now += 1
        META.setdefault("graph_shapes", []).append([T, S, round(time.time() - t, 2)])

    def need_blocks(self, r, n):
        return max(0, -(-(r.computed + n) // self.blk) - len(r.blocks))

    def schedule(self, running, waiting, now):
        budget, plan = MAX_TOKENS, []
        for r in running:
            if budget <= 0:
                break
            n = min(r.prompt - r.computed, budget) if r.computed < r.prompt else 1
            if self.need_blocks(r, n) > len(self.free):
                break   # (no preemption is needed in these runs: the pool is sized for them)
            for _ in range(self.need_blocks(r, n)):
                self.give_block(r)
            plan.append((r, n))
            budget -= n
        while waiting and budget > 0 and len(running) < MAX_SEQS:
            r = waiting[0]
            n = min(r.prompt, budget)
            if self.need_blocks(r, n) > len(self.free):
                break
            waiting.popleft()
            for _ in range(self.need_blocks(r, n)):
                self.give_block(r)
            r.admitted = now
            running.append(r)
            plan.append((r, n))
            budget -= n
        return plan

    def step(self, plan):
        if ATTN["path"] == "triton_paged" and PREP[0] == "numpy":
            try:
                return self.step_vec(plan)
            except Exception:
                META["errors"].append(dict(step_vec=traceback.format_exc()[-2000:]))
                log("numpy input preparation failed; Python lists from now on:", traceback.format_exc()[-1500:])
                PREP[0] = "lists"
        return self.step_lists(plan)

    def step_vec(self, plan):
        """Inputs prepared as vLLM V1's GPUModelRunner does (numpy over the persistent block
        table into pinned buffers, one copy each), then the graph (or eager forward) and sampling."""
        blk, a = self.blk, self.np
        S = len(plan)
        rows = np.fromiter((r.row for r, _ in plan), np.int64, S)
        start = np.fromiter((r.computed for r, _ in plan), np.int64, S)
        nq = np.fromiter((n for _, n in plan), np.int64, S)
        cu = a["cu_q"]
        cu[0] = 0
        np.cumsum(nq, out=cu[1:S + 1])
        T = int(cu[S])
        seq_of = np.repeat(np.arange(S), nq)
        pos = np.repeat(start - cu[:S], nq) + np.arange(T)
        a["pos"][:T] = pos
        a["ids"][:T] = (pos * 31 + 7) % CFG["vocab"]     # token ids do not matter (random weights)
        a["slots"][:T] = self.bt_np[rows[seq_of], pos // blk].astype(np.int64) * blk + pos % blk
        a["last"][:S] = cu[1:S + 1] - 1
        a["seq_lens"][:S] = start + nq
        a["block_table"][:S] = self.bt_np[rows]
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
        captured = 0
        if self.use_graphs:
            Sp = next(x for x in SEQ_SIZES if x >= S)
            Tp = next(x for x in TOK_SIZES if x >= max(T, Sp))
            if (Tp, Sp) not in self.graphs:
                try:
                    self.capture(Tp, Sp)
                except Exception:
                    META["errors"].append(dict(capture=[Tp, Sp], trace=traceback.format_exc()[-2000:]))
                    log("graph capture failed; eager from now on:", traceback.format_exc()[-800:])
                    GRAPH_POOL[0] = None
                    self.use_graphs = False
                    return self.step_vec(plan)
                captured = 1
            g, st = self.graphs[(Tp, Sp)]
            for k in ("ids", "pos", "slots"):
                a[k][T:Tp] = 0
            a["last"][S:Sp] = 0
            cu[S + 1:Sp + 1] = T
            a["seq_lens"][S:Sp] = 0
            for k, n in (("ids", Tp), ("pos", Tp), ("slots", Tp), ("last", Sp)):
                st[k].copy_(self.stage[k][:n], non_blocking=True)
            st["b"]["cu_q"].copy_(self.stage["cu_q"][:Sp + 1], non_blocking=True)
            st["b"]["seq_lens"].copy_(self.stage["seq_lens"][:Sp], non_blocking=True)
            st["b"]["block_table"].copy_(self.stage["block_table"][:Sp], non_blocking=True)
            t_prep = time.perf_counter()
            ev[0].record()
            g.replay()
            ev[1].record()
            ev[2].record()      # argmax is inside the graph
            toks = st["out"]
            graph = [Tp, Sp]
        else:
            d = {k: self.stage[k][:n].to(dev, non_blocking=True) for k, n in
                 (("ids", T), ("pos", T), ("slots", T), ("last", S), ("cu_q", S + 1), ("seq_lens", S),
                  ("block_table", S))}
            b = dict(cu_q=d["cu_q"], seq_lens=d["seq_lens"], block_table=d["block_table"], num_seqs=S)
            t_prep = time.perf_counter()
            ev[0].record()
            logits = self.m.forward(d["ids"], d["pos"], d["slots"], d["last"], b)
            ev[1].record()
            toks = logits.argmax(-1)
            ev[2].record()
            graph = 0
        t_launch = time.perf_counter()
        out = toks.tolist()[:S]
        t_sync = time.perf_counter()
        return out, ev, dict(graph=graph, captured=captured, t_prep=t_prep, t_launch=t_launch, t_sync=t_sync)

    def step_lists(self, plan):
        """Inputs from Python lists (the fallback attention paths)."""
        blk = self.blk
        ids, pos, slots, last, tables, ctx, qlens = [], [], [], [], [], [], []
        for r, n in plan:
            for p in range(r.computed, r.computed + n):
                ids.append((r.rid * 7919 + p * 31) % CFG["vocab"])   # token ids do not matter (random weights)
                pos.append(p)
                slots.append(r.blocks[p // blk] * blk + p % blk)
            last.append(len(ids) - 1)
            tables.append(r.blocks)
            ctx.append(r.computed + n)
            qlens.append(n)
        T, S = len(ids), len(plan)
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
        captured = 0
        if self.use_graphs:
            Sp = next(x for x in SEQ_SIZES if x >= S)
            Tp = next(x for x in TOK_SIZES if x >= max(T, Sp))
            if (Tp, Sp) not in self.graphs:
                try:
                    self.capture(Tp, Sp)
                except Exception:
                    META["errors"].append(dict(capture=[Tp, Sp], trace=traceback.format_exc()[-2000:]))
                    log("graph capture failed; eager from now on:", traceback.format_exc()[-800:])
                    GRAPH_POOL[0] = None
                    self.use_graphs = False
                    return self.step_lists(plan)
                captured = 1
            g, st = self.graphs[(Tp, Sp)]
            st["ids"].copy_(torch.tensor(ids + [0] * (Tp - T)).pin_memory(), non_blocking=True)
            st["pos"].copy_(torch.tensor(pos + [0] * (Tp - T)).pin_memory(), non_blocking=True)
            st["slots"].copy_(torch.tensor(slots + [0] * (Tp - T)).pin_memory(), non_blocking=True)
            st["last"].copy_(torch.tensor(last + [0] * (Sp - S)).pin_memory(), non_blocking=True)
            b = batch_tensors(tables, ctx, qlens, blk, pad_to=Sp, max_k=MAX_MODEL_LEN, to_device=False)
            for k in ("cu_q", "cu_k", "seq_lens", "block_table"):
                st["b"][k].copy_(b[k], non_blocking=True)
            t_prep = time.perf_counter()
            ev[0].record()
            g.replay()
            ev[1].record()
            ev[2].record()      # argmax is inside the graph
            toks = st["out"]
            graph = [Tp, Sp]
        else:
            t_ids = torch.tensor(ids).pin_memory().to(dev, non_blocking=True)
            t_pos = torch.tensor(pos).pin_memory().to(dev, non_blocking=True)
            t_slots = torch.tensor(slots).pin_memory().to(dev, non_blocking=True)
            t_last = torch.tensor(last).pin_memory().to(dev, non_blocking=True)
            b = batch_tensors(tables, ctx, qlens, blk)
            t_prep = time.perf_counter()
            ev[0].record()
            logits = self.m.forward(t_ids, t_pos, t_slots, t_last, b)
            ev[1].record()
            toks = logits.argmax(-1)
            ev[2].record()
            graph = 0
        t_launch = time.perf_counter()
        out = toks.tolist()[:S]
        t_sync = time.perf_counter()
        return out, ev, dict(graph=graph, captured=captured, t_prep=t_prep, t_launch=t_launch, t_sync=t_sync)


def run_trace(model, name, reqs, graphs=True, num_blocks=None, blk=16, record=True):
    """reqs: list of (arrival_s, prompt, output), arriving at their times into an empty engine.
    record=False: a warm-up pass (captures the graphs and compiles the kernels it needs)."""
    eng = Engine(model, num_blocks, blk, graphs)
    pending = collections.deque(sorted([Req(i, a, p, o) for i, (a, p, o) in enumerate(reqs)], key=lambda r: r.arrival))
    waiting, running, done = collections.deque(), [], []
    steps = []
    t_start = time.perf_counter()
    while pending or waiting or running:
        now = time.perf_counter() - t_start
        if not waiting and not running and pending and pending[0].arrival > now:
            while time.perf_counter() - t_start < pending[0].arrival:
                pass
            now = time.perf_counter() - t_start
        while pending and pending[0].arrival <= now:
            waiting.append(pending.popleft())
        ts = time.perf_counter()
        plan = eng.schedule(running, waiting, now)
        t_sched = time.perf_counter()
        toks, ev, info = eng.step(plan)
        # bookkeeping: tokens out, requests finished, blocks freed
        tnow = time.perf_counter() - t_start
        dec = [(r.computed, n) for r, n in plan if r.computed >= r.prompt]
        chunks = [(r.computed, n) for r, n in plan if r.computed < r.prompt]
        for (r, n), tok in zip(plan, toks):
            r.computed += n
            if r.computed >= r.prompt:
                r.generated += 1
                r.token_times.append(tnow)
                if r.first is None:
                    r.first = tnow
                if r.generated >= r.output:
                    r.finish = tnow
        for r in [r for r, _ in plan if r.finish is not None]:
            running.remove(r)
            eng.release(r)
            done.append(r)
        te = time.perf_counter()
        steps.append(dict(ev=ev, t=ts - t_start, sched=t_sched - ts, prep=info["t_prep"] - t_sched,
                          launch=info["t_launch"] - info["t_prep"], sync=info["t_sync"] - info["t_launch"],
                          post=te - info["t_sync"], wall=te - ts, graph=info["graph"], captured=info["captured"],
                          decodes=len(dec), decode_ctx=[c + 1 for c, _ in dec],
                          chunks=[[s, n] for s, n in chunks], waiting=len(waiting)))
    torch.cuda.synchronize()
    if not record:
        return dict(engine_steps=len(steps), captured=eng.captured_now)
    for i, s in enumerate(steps):
        ev = s.pop("ev")
        fwd, tot = ev[0].elapsed_time(ev[1]) / 1e3, ev[0].elapsed_time(ev[2]) / 1e3
        s.update(gpu_fwd_s=fwd, gpu_s=tot, host_s=s["wall"] - tot)
        STEPS.append(dict(kind="serve_loop_step", run=name, step=i, tokens=s["decodes"] + sum(n for _, n in s["chunks"]),
                          **{k: (round(v, 7) if isinstance(v, float) else v) for k, v in s.items()}))
    for r in done:
        REQS.append(dict(run=name, rid=r.rid, arrival_s=round(r.arrival, 6), prompt_tokens=r.prompt,
                         output_tokens=r.output, first_s=round(r.first, 6), finish_s=round(r.finish, 6)))
    ttft = [r.first - r.arrival for r in done]
    tpot = [(r.finish - r.first) / (r.output - 1) for r in done if r.output > 1]
    itl = [b - a for r in done for a, b in zip(r.token_times, r.token_times[1:])]
    e2el = [r.finish - r.arrival for r in done]
    dur = max(r.finish for r in done) - min(r.arrival for r in done)
    outs = sum(r.output for r in done)
    dsteps = [s for s in steps if s["chunks"] == [] and not s["captured"]]
    res = dict(completed=len(done), duration_s=dur, mean_ttft_s=statistics.mean(ttft), median_ttft_s=statistics.median(ttft),
               mean_tpot_s=statistics.mean(tpot), median_tpot_s=statistics.median(tpot),
               mean_itl_s=statistics.mean(itl), median_itl_s=statistics.median(itl), mean_e2el_s=statistics.mean(e2el),
               output_tokens_per_s=outs / dur, engine_steps=len(steps),
               decode_steps=len(dsteps),
               mean_decode_step_wall_s=statistics.mean(s["wall"] for s in dsteps) if dsteps else None,
               mean_decode_step_gpu_s=statistics.mean(s["gpu_s"] for s in dsteps) if dsteps else None,
               mean_decode_step_host_s=statistics.mean(s["host_s"] for s in dsteps) if dsteps else None)
    log(f"{name}: {len(done)} req, {len(steps)} steps, TTFT {res['mean_ttft_s']*1e3:.2f} ms, TPOT "
        f"{res['mean_tpot_s']*1e3:.3f} ms, tok/s {res['output_tokens_per_s']:.0f}; decode step wall "
        f"{(res['mean_decode_step_wall_s'] or 0)*1e3:.3f} gpu {(res['mean_decode_step_gpu_s'] or 0)*1e3:.3f} "
        f"host {(res['mean_decode_step_host_s'] or 0)*1e3:.3f} ms")
    return res



def poisson(n, rate, prompt, output, seed):
    rng = random.Random(seed)
    t, out = 0.0, []
    for _ in range(n):
        if rate != math.inf:
            t += -math.log(1.0 - rng.random()) / rate
        p = prompt if isinstance(prompt, int) else rng.randint(*prompt)
        o = output if isinstance(output, int) else rng.randint(*output)
        out.append((0.0 if rate == math.inf else t, p, o))
    return out


def main():
    smi = Smi()
    smi.start()
    META.update(device=DEVICE, gpu=NAME, torch=torch.__version__, cuda=torch.version.cuda,
                driver=smi_once("driver_version"), python=sys.version.split()[0],
                varlen_params=sorted(VARLEN_PARAMS), model=CFG["model"], layers=CFG["layers"], weights="bf16",
                kv="bf16", max_num_batched_tokens=MAX_TOKENS, max_num_seqs=MAX_SEQS, capture_sizes=CAPTURE_SIZES,
                method="scripts/measure/serving/measure_serve_loop.py: PyTorch ops of Llama-3-8B shapes (random bf16 "
                       "weights), each step replaying a CUDA graph of its padded (tokens, sequences) shape, paged KV "
                       "(block table), a Triton paged attention kernel over the mixed batch, vLLM V1-style scheduler "
                       "with chunked prefill (budget 2048 tokens), greedy sampling on the GPU, one host sync a step")
    tried = probe_attention()
    META.update(attention=ATTN["path"], kv_block=ATTN["block"], attention_probe=tried)
    flush()
    blk = ATTN["block"]
    per_block = CFG["layers"] * 2 * blk * CFG["kv_heads"] * CFG["head_dim"] * 2
    nb = KV_BUDGET_BYTES // per_block
    model = Llama(CFG, nb, blk)
    META.update(num_blocks=int(nb))
    log(f"model ready: {nb} KV blocks of {blk}")
    if ATTN["path"] == "triton_paged":
        GRAPH_POOL[0] = torch.cuda.graph_pool_handle()
        META["graphs"] = "every step replays a CUDA graph of its padded shape (tokens, sequences)"
    else:
        META["graphs"] = f"none: {ATTN['path']} gathers a size that changes every step"
    flush()

    runs = []
    for c in (1, 2, 4, 8):
        for rep in range(3):
            runs.append((f"conc{c}_r{rep}", dict(reqs=poisson(c, math.inf, 100, 200, 0), concurrency=c, rate="inf",
                                                 prompt=100, output=200, graphs=True, family="concurrency")))
    runs += [
        ("poisson_r2", dict(reqs=poisson(40, 2.0, (80, 120), 200, 1), rate=2.0, prompt="uniform:80..120", output=200,
                            graphs=True, family="poisson", seed=1)),
        ("poisson_r8", dict(reqs=poisson(100, 8.0, (80, 120), 200, 2), rate=8.0, prompt="uniform:80..120", output=200,
                            graphs=True, family="poisson", seed=2)),
        ("burst64", dict(reqs=poisson(64, math.inf, 100, 200, 3), rate="inf", prompt=100, output=200, graphs=True,
                         family="burst")),
        ("burst128", dict(reqs=poisson(128, math.inf, 100, 100, 5), rate="inf", prompt=100, output=100, graphs=True,
                          family="burst")),
        ("long_r3", dict(reqs=poisson(24, 3.0, (1000, 3000), 100, 4), rate=3.0, prompt="uniform:1000..3000",
                         output=100, graphs=True, family="long", seed=4)),
        ("conc1_eager", dict(reqs=poisson(1, math.inf, 100, 200, 0), concurrency=1, rate="inf", prompt=100,
                             output=200, graphs=False, family="eager")),
    ]
    for name, r in runs:
        if ONLY and not any(name.startswith(o) for o in ONLY):
            continue
        t = time.time()
        try:
            graphs = r["graphs"] and GRAPH_POOL[0] is not None
            w = run_trace(model, name, r["reqs"], graphs=graphs, num_blocks=nb, blk=blk, record=False)
            log(f"{name}: warm-up pass {w['engine_steps']} steps, {w['captured']} graphs captured")
            res = run_trace(model, name, r["reqs"], graphs=graphs, num_blocks=nb, blk=blk)
            RECORDS.append(dict(kind="serve_loop_trace", device=DEVICE, run=name, family=r["family"],
                                model=CFG["model"], layers=CFG["layers"], requests=len(r["reqs"]),
                                concurrency=r.get("concurrency"), rate=r["rate"], prompt=r["prompt"],
                                output=r["output"], seed=r.get("seed"), cuda_graphs=graphs,
                                attention=ATTN["path"], kv_block=blk, input_prep=PREP[0],
                                **{k: (round(v, 7) if isinstance(v, float) else v) for k, v in res.items()}))
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append(dict(run=name, trace=tb[-2500:]))
            log(f"ERROR {name}:\n{tb}")
        META["run_s"][name] = round(time.time() - t, 1)
        flush()
    smi.stop = True
    META["wall_s"] = round(time.time() - T0, 1)
    flush()
    log("summary")
    for r in RECORDS:
        log(f"  {r['run']:16s} TTFT {r['mean_ttft_s']*1e3:8.2f}  TPOT {r['mean_tpot_s']*1e3:7.3f}  ITL "
            f"{r['mean_itl_s']*1e3:7.3f} ms  tok/s {r['output_tokens_per_s']:8.0f}  dstep wall/gpu/host "
            f"{(r['mean_decode_step_wall_s'] or 0)*1e3:.3f}/{(r['mean_decode_step_gpu_s'] or 0)*1e3:.3f}/"
            f"{(r['mean_decode_step_host_s'] or 0)*1e3:.3f}")


if __name__ == "__main__":
    main()
