"""Training-step GPU measurements for hwsim (PyTorch, random weights, synthetic token ids).

Usage (on the device machine, from the repository root):
    set -o pipefail
    PYTHONUNBUFFERED=1 python3 scripts/measure/measure_train.py TAG [config,config,...] 2>&1 | tee $OUT/TAG.log
  configs (default: all, in this order):
    gpt2_b8, gpt2_b16, gpt2_b8_ckpt, gpt2_b16_ckpt,
    llama8b4l_b1, llama8b4l_b2, llama8b4l_b1_ckpt, llama8b4l_b2_ckpt       (set "fit": shaped hwsim)
    gpt2m_b8, gpt2m_b8_ckpt, gpt2_b4x4acc, llama8b2l_b1_s4096, llama8b2l_b1_s4096_ckpt,
    llama8b4l_b4_s1024, llama8b4l_b1x4acc                                   (set "heldout")
  a config list may name the sets too: "heldout", "fit".
Writes $OUT/TAG.jsonl (a `device` record first, one `train_step` record per config, a `run_meta`
record last; the file is rewritten after every config so a timeout still leaves data).  The
nvidia-smi samples (SM/memory clock, power, temperature, utilisation, clock-event reasons), one a
second, go to stdout as lines starting with `smi` (so into TAG.log with the tee above).

What one training step is: forward under torch.autocast(bf16) with fp32 master weights, loss =
F.cross_entropy(logits.float(), targets) over the full vocabulary, loss.backward(),
torch.optim.AdamW(fused=True).step(), zero_grad(set_to_none=True).  Eager PyTorch, no CUDA graph
and no torch.compile, as ordinary training code runs.  The models are defined here:
  * GPT-2 124M: 12 layers, d=768, 12 heads, vocab 50257, learned positions (1024), LayerNorm,
    GELU (tanh) MLP 4x, biases, tied input/output embedding; fused c_attn as in GPT-2/nanoGPT.
  * Llama-3-8B shape cut to 4 layers: d=4096, 32 heads, 8 KV heads, head_dim 128, SwiGLU 14336,
    RMSNorm (nn.RMSNorm), RoPE (theta 500000, HF rotate_half), vocab 128256, untied lm_head;
    separate q/k/v/o and gate/up/down projections as in HF/torchtitan.
  Attention is F.scaled_dot_product_attention(is_causal=True); GQA through enable_gqa=True when
  that runs forward and backward on a non-math backend, else K/V repeated (repeat_kv).
  * GPT-2 medium (355M): as GPT-2 124M with 24 layers, d=1024, 16 heads.
  * Llama-3-8B shape cut to 2 layers, RoPE table for 4096 positions (for seq 4096).
  `_ckpt` configs wrap every block in torch.utils.checkpoint(use_reentrant=False).
  `xNacc` configs accumulate gradients over N micro-batches of `batch` sequences each (different
  token ids per micro-batch): N times (forward, loss / N, backward), then one optimizer step and
  zero_grad; the record's `batch` is the micro-batch, `microbatches` = N, `global_batch` = N*batch,
  and tokens_per_step / FLOPs count all N micro-batches.  Every record carries `microbatches` (1
  when there is no accumulation) and `heldout` (true for the configs added after the "fit" set).

Method per config.  Pass 1 (clean timing, no profiler yet in the process): build model and
optimizer, reset peak memory, 3 warm-up steps, then 10 steps each bracketed by CUDA events
(torch.cuda.synchronize before and after): median/min/max step seconds; peak memory =
torch.cuda.max_memory_allocated over warm-up + timed steps (model, grads, AdamW state and
activations); phase split = medians over 3 further steps with CUDA events between forward+loss,
backward and optimizer (step + zero_grad); then >= 3 s of further event-timed steps ("sustained",
so that at least two 1-second nvidia-smi samples fall inside every config) and the SM-clock
statistics of the samples taken during the config.  Pass 2: rebuild the config, 3 warm-up steps,
10 event-timed steps again (`repeat_*`: run-to-run spread), then torch.profiler (CUDA activity)
over 2 steps: the top 25 device activities by total time and totals by category.
"""
import gc, json, os, statistics, subprocess, sys, threading, time, traceback

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

OUT = os.environ.get("OUT", ".")
TAG = sys.argv[1] if len(sys.argv) > 1 else "train"
ONLY = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else None
DEADLINE_S = float(os.environ.get("TRAIN_DEADLINE_S", "480"))  # stop starting new work after this
T_START = time.time()
BF = torch.bfloat16

WARMUP, TIMED, PHASE_STEPS, SUSTAIN_S, PROFILE_STEPS, TOPK = 3, 10, 3, 3.0, 2, 25

GPT2 = dict(family="gpt2", model="gpt2_124m", layers=12, d=768, heads=12, vocab=50257, max_seq=1024)
LLAMA = dict(family="llama", model="llama3_8b_4l", layers=4, d=4096, heads=32, kv_heads=8, head_dim=128,
             ffn=14336, vocab=128256, theta=500000.0, eps=1e-5, max_seq=2048, truncated_from_layers=32)

GPT2M = dict(family="gpt2", model="gpt2_355m", layers=24, d=1024, heads=16, vocab=50257, max_seq=1024)
LLAMA2L = dict(LLAMA, model="llama3_8b_2l", layers=2, max_seq=4096)

# (name, model, batch (per micro-batch), seq, checkpointing[, micro-batches])
CONFIGS = [
    ("gpt2_b8", GPT2, 8, 1024, False),
    ("gpt2_b16", GPT2, 16, 1024, False),
    ("gpt2_b8_ckpt", GPT2, 8, 1024, True),
    ("gpt2_b16_ckpt", GPT2, 16, 1024, True),
    ("llama8b4l_b1", LLAMA, 1, 2048, False),
    ("llama8b4l_b2", LLAMA, 2, 2048, False),
    ("llama8b4l_b1_ckpt", LLAMA, 1, 2048, True),
    ("llama8b4l_b2_ckpt", LLAMA, 2, 2048, True),
]
FIT_SET = [cfg[0] for cfg in CONFIGS]
HELDOUT_CONFIGS = [
    ("gpt2m_b8", GPT2M, 8, 1024, False),
    ("gpt2m_b8_ckpt", GPT2M, 8, 1024, True),
    ("gpt2_b4x4acc", GPT2, 4, 1024, False, 4),
    ("llama8b2l_b1_s4096", LLAMA2L, 1, 4096, False),
    ("llama8b2l_b1_s4096_ckpt", LLAMA2L, 1, 4096, True),
    ("llama8b4l_b4_s1024", LLAMA, 4, 1024, False),
    ("llama8b4l_b1x4acc", LLAMA, 1, 2048, False, 4),
]
HELDOUT_SET = [cfg[0] for cfg in HELDOUT_CONFIGS]
CONFIGS += HELDOUT_CONFIGS


def unpack(cfg):
    """(name, c, B, S, ckpt, microbatches) of a CONFIGS entry."""
    return tuple(cfg[:5]) + ((cfg[5] if len(cfg) > 5 else 1),)


def select(only):
    if not only:
        return list(CONFIGS)
    names = []
    for n in only:
        names += FIT_SET if n == "fit" else HELDOUT_SET if n == "heldout" else [n]
    unknown = [n for n in names if n not in {cfg[0] for cfg in CONFIGS}]
    if unknown:
        raise SystemExit(f"unknown configs: {unknown}")
    return [cfg for cfg in CONFIGS if cfg[0] in names]

RECORDS = []
BY_NAME = {}
META = {"errors": [], "skipped": [], "pass_s": {}}
ATTN_IMPL = "sdpa_repeat_kv"
DEVICE = "unknown"


def log(*a):
    sys.stdout.write(" ".join([f"[{TAG} {time.time() - T_START:6.1f}s]"] + [str(x) for x in a]) + "\n")
    sys.stdout.flush()


def device_id(name):
    n = name.upper()
    if "H200" in n:
        return "h200_nvl" if "NVL" in n else "h200_sxm"
    if "H100" in n:
        if "PCIE" in n:
            return "h100_pcie"
        return "h100_nvl" if "NVL" in n else "h100_sxm"
    return name.lower().replace(" ", "_")


def flush():
    with open(os.path.join(OUT, f"{TAG}.jsonl"), "w") as f:
        for r in RECORDS:
            f.write(json.dumps(r) + "\n")
        f.write(json.dumps(dict(kind="run_meta", device=DEVICE, wall_s=round(time.time() - T_START, 1),
                                **META)) + "\n")


# ----------------------------------------------------------------------------- nvidia-smi
def smi(fields):
    try:
        p = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        if p.returncode != 0:
            return None
        return dict(zip(fields.split(","), [v.strip() for v in p.stdout.strip().split("\n")[0].split(",")]))
    except Exception:  # noqa
        return None


def _num(s):
    try:
        return float(str(s).strip().split()[0])
    except Exception:  # noqa
        return None


def _mask(s):
    try:
        return int(str(s).strip(), 16)
    except Exception:  # noqa
        return None


# nvidia-smi clock-event reason bits
REASON_BITS = {0x1: "gpu_idle", 0x2: "applications_clocks_setting", 0x4: "sw_power_cap", 0x8: "hw_slowdown",
               0x10: "sync_boost", 0x20: "sw_thermal_slowdown", 0x40: "hw_thermal_slowdown",
               0x80: "hw_power_brake_slowdown", 0x100: "display_clock_setting"}
POWER_BITS = 0x4 | 0x80
THERMAL_BITS = 0x8 | 0x20 | 0x40


class SmiSampler(threading.Thread):
    """Queries nvidia-smi once a second (host time stamped here), prints each sample as a `smi`
    line into the log and keeps them for the per-config clock statistics."""

    def __init__(self, period=1.0):
        super().__init__(daemon=True)
        self.period = period
        self.samples = []  # (host time, sm MHz, mem MHz, power W, temp C, util %, reasons mask)
        self.stop_ev = threading.Event()
        self.reason_field = None
        for f in ("clocks_event_reasons.active", "clocks_throttle_reasons.active"):
            if smi(f):
                self.reason_field = f
                break
        self.fields = "clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu"
        if self.reason_field:
            self.fields += "," + self.reason_field
        log("smi columns: host_s," + self.fields)

    def run(self):
        while not self.stop_ev.is_set():
            t0 = time.time()
            try:
                p = subprocess.run(["nvidia-smi", f"--query-gpu={self.fields}", "--format=csv,noheader,nounits"],
                                   capture_output=True, text=True, timeout=10)
                t1 = time.time()
                if p.returncode == 0 and p.stdout.strip():
                    v = [x.strip() for x in p.stdout.strip().split("\n")[0].split(",")]
                    s = (0.5 * (t0 + t1), _num(v[0]), _num(v[1]), _num(v[2]), _num(v[3]), _num(v[4]),
                         _mask(v[5]) if len(v) > 5 else None)
                    self.samples.append(s)
                    sys.stdout.write(f"smi {s[0] - T_START:8.2f}s sm={v[0]} MHz mem={v[1]} MHz power={v[2]} W "
                                     f"temp={v[3]} C util={v[4]} % reasons={v[5] if len(v) > 5 else '?'}\n")
                    sys.stdout.flush()
            except Exception as e:  # noqa
                sys.stdout.write(f"smi error {e}\n")
            self.stop_ev.wait(max(0.05, self.period - (time.time() - t0)))

    def stats(self, t0, t1, max_sm):
        ss = [s for s in list(self.samples) if t0 <= s[0] <= t1]
        if not ss:
            return dict(n=0)
        sm = [s[1] for s in ss if s[1] is not None]
        pw = [s[3] for s in ss if s[3] is not None]
        masks = [s[6] for s in ss if s[6] is not None]
        union = 0
        for m in masks:
            union |= m
        n_power = sum(1 for m in masks if m & POWER_BITS)
        n_thermal = sum(1 for m in masks if m & THERMAL_BITS)
        r = dict(n=len(ss),
                 sm_clock_mhz=dict(min=min(sm), mean=round(statistics.mean(sm), 1), max=max(sm)) if sm else None,
                 power_w=dict(mean=round(statistics.mean(pw), 1), max=max(pw)) if pw else None,
                 temp_c_max=max((s[4] for s in ss if s[4] is not None), default=None),
                 reasons_union=hex(union) if masks else None,
                 reasons=[n for b, n in REASON_BITS.items() if union & b],
                 samples_power_capped=n_power, samples_thermal=n_thermal)
        r["power_throttled"] = bool(n_power > 0 and sm and max_sm and min(sm) < max_sm)
        return r


# ----------------------------------------------------------------------------- models
def sdpa_causal(q, k, v):
    if q.shape[1] != k.shape[1]:
        if ATTN_IMPL == "sdpa_enable_gqa":
            return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        rep = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class GPT2Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d)
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.c_fc = nn.Linear(d, 4 * d)
        self.mlp_proj = nn.Linear(4 * d, d)

    def forward(self, x):
        B, T, C = x.shape
        H = self.heads
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q = q.view(B, T, H, C // H).transpose(1, 2)
        k = k.view(B, T, H, C // H).transpose(1, 2)
        v = v.view(B, T, H, C // H).transpose(1, 2)
        y = sdpa_causal(q, k, v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.c_proj(y)
        x = x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))
        return x


class GPT2Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["d"]
        self.wte = nn.Embedding(c["vocab"], d)
        self.wpe = nn.Embedding(c["max_seq"], d)
        self.blocks = nn.ModuleList([GPT2Block(d, c["heads"]) for _ in range(c["layers"])])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, c["vocab"], bias=False)
        self.lm_head.weight = self.wte.weight  # tied
        self.ckpt = False
        for m in self.modules():  # GPT-2 init: N(0, 0.02) weights, zero biases, LN (1, 0)
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0.0, 0.02)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.zeros_(m.bias)

    def forward(self, idx):
        T = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.ckpt else b(x)
        return self.lm_head(self.ln_f(x))


def rotate_half_rope(x, cos, sin):
    h = x.shape[-1] // 2
    return x * cos + torch.cat((-x[..., h:], x[..., :h]), dim=-1) * sin


def _rmsnorm(d, eps):
    if hasattr(nn, "RMSNorm"):
        return nn.RMSNorm(d, eps=eps)

    class RMSNorm(nn.Module):  # fallback for torch < 2.4 (local CPU checks only)
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * self.weight
    return RMSNorm()


class LlamaBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, H, KV, D = c["d"], c["heads"], c["kv_heads"], c["head_dim"]
        self.H, self.KV, self.D = H, KV, D
        self.attention_norm = _rmsnorm(d, c["eps"])
        self.wq = nn.Linear(d, H * D, bias=False)
        self.wk = nn.Linear(d, KV * D, bias=False)
        self.wv = nn.Linear(d, KV * D, bias=False)
        self.wo = nn.Linear(H * D, d, bias=False)
        self.ffn_norm = _rmsnorm(d, c["eps"])
        self.w1 = nn.Linear(d, c["ffn"], bias=False)  # gate
        self.w3 = nn.Linear(d, c["ffn"], bias=False)  # up
        self.w2 = nn.Linear(c["ffn"], d, bias=False)  # down

    def forward(self, x, cos, sin):
        B, T, _ = x.shape
        h = self.attention_norm(x)
        q = self.wq(h).view(B, T, self.H, self.D).transpose(1, 2)
        k = self.wk(h).view(B, T, self.KV, self.D).transpose(1, 2)
        v = self.wv(h).view(B, T, self.KV, self.D).transpose(1, 2)
        q = rotate_half_rope(q, cos, sin)
        k = rotate_half_rope(k, cos, sin)
        o = sdpa_causal(q, k, v).transpose(1, 2).reshape(B, T, self.H * self.D)
        x = x + self.wo(o)
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class LlamaModel(nn.Module):
    def __init__(self, c, rope_dtype=BF):
        super().__init__()
        d, D = c["d"], c["head_dim"]
        self.tok_embeddings = nn.Embedding(c["vocab"], d)
        self.layers = nn.ModuleList([LlamaBlock(c) for _ in range(c["layers"])])
        self.norm = _rmsnorm(d, c["eps"])
        self.output = nn.Linear(d, c["vocab"], bias=False)  # untied
        self.ckpt = False
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0.0, 0.02)
        inv = 1.0 / (c["theta"] ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
        f = torch.outer(torch.arange(c["max_seq"], dtype=torch.float32), inv)
        e = torch.cat([f, f], dim=-1)
        # HF computes cos/sin in fp32 and casts them to the activations' dtype (bf16 under autocast)
        self.register_buffer("cos", e.cos().to(rope_dtype), persistent=False)
        self.register_buffer("sin", e.sin().to(rope_dtype), persistent=False)

    def forward(self, idx):
        T = idx.shape[1]
        cos, sin = self.cos[None, None, :T], self.sin[None, None, :T]
        x = self.tok_embeddings(idx)
        for b in self.layers:
            x = checkpoint(b, x, cos, sin, use_reentrant=False) if self.ckpt else b(x, cos, sin)
        return self.output(self.norm(x))


def build_model(c):
    return GPT2Model(c) if c["family"] == "gpt2" else LlamaModel(c)


def count_params(model):
    params = sum(p.numel() for p in model.parameters())  # tied weights once
    seen, matmul = set(), 0
    for m in model.modules():
        if isinstance(m, nn.Linear) and id(m.weight) not in seen:
            seen.add(id(m.weight))
            matmul += m.weight.numel()
    return params, matmul


def step_flops(c, B, S, matmul_params, ckpt):
    """Model FLOPs of one step (fwd + 2x fwd for bwd) and the hardware FLOPs (+1 fwd of the blocks
    when every block is recomputed; the lm_head is not checkpointed).  Attention: causal, S(S+1)/2
    (query, key) pairs, 4 FLOPs per pair per head dim (QK^T and PV) in forward."""
    tok = B * S
    heads = c["heads"]
    hd = c.get("head_dim", c["d"] // heads)
    fwd_linear = 2.0 * tok * matmul_params
    fwd_attn = c["layers"] * 4.0 * B * heads * hd * S * (S + 1) / 2
    lm_head = 2.0 * tok * c["d"] * c["vocab"]
    model = 3.0 * (fwd_linear + fwd_attn)
    hw = model + ((fwd_linear - lm_head) + fwd_attn if ckpt else 0.0)
    return model, hw


# ----------------------------------------------------------------------------- kernel categories
CATEGORIES = ["gemm", "attention", "norm", "elementwise", "softmax_loss", "optimizer", "copy_cast",
              "reduction", "other"]


def categorize(name):
    n = name.lower()
    if any(s in n for s in ("flash", "fmha", "sdpa", "attention", "attn")):
        return "attention"
    if any(s in n for s in ("multi_tensor", "fusedadam", "fused_adam", "adam")):
        return "optimizer"
    if any(s in n for s in ("gemm", "nvjet", "cutlass", "cublas", "xmma", "matmul", "splitkreduce", "gemv",
                            "sm90_", "sm80_", "ampere_", "hopper_")):
        return "gemm"
    if any(s in n for s in ("softmax", "cross_entropy", "nll_loss", "logsoftmax", "log_softmax")):
        return "softmax_loss"
    if any(s in n for s in ("layer_norm", "layernorm", "rms_norm", "rmsnorm", "gammabeta", "_norm_", "batch_norm")):
        return "norm"
    if any(s in n for s in ("copy", "memcpy", "cat_", "catarray", "to_copy", "transpose")):
        return "copy_cast"
    if any(s in n for s in ("embedding", "index", "gather", "scatter", "segment", "radix", "sort", "memset")):
        return "other"  # embedding backward (sort/segment sums), indexing, memset
    if any(s in n for s in ("reduce", "reduction", "sum_", "mean_", "norm_kernel")):
        return "reduction"
    if any(s in n for s in ("elementwise", "gelu", "silu", "functor", "mul", "add", "neg", "tanh", "activation")):
        return "elementwise"
    return "other"


def profile_steps(step, steps):
    """{name: [count, total device us]} of the device activities (kernels, memcpy, memset) of
    `steps` training steps."""
    from torch.profiler import profile, ProfilerActivity
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    agg = {}
    for e in prof.events():
        if str(getattr(e, "device_type", "")).endswith("CUDA"):
            d = agg.setdefault(e.name, [0, 0.0])
            d[0] += 1
            d[1] += e.time_range.end - e.time_range.start
    return agg


def summarize_profile(agg, steps):
    cats = {k: dict(total_us=0.0, count=0) for k in CATEGORIES}
    for name, (cnt, us) in agg.items():
        c = cats[categorize(name)]
        c["total_us"] += us
        c["count"] += cnt
    tot = sum(v[1] for v in agg.values())
    for c in cats.values():
        c["total_us"] = round(c["total_us"], 1)
        c["per_step_ms"] = round(c["total_us"] / steps / 1e3, 4)
        c["share"] = round(c["total_us"] / tot, 4) if tot else None
    top = sorted(agg.items(), key=lambda kv: -kv[1][1])[:TOPK]
    top = [dict(name=n[:500], category=categorize(n), count=v[0], total_us=round(v[1], 1),
                per_step_us=round(v[1] / steps, 1), avg_us=round(v[1] / max(v[0], 1), 2)) for n, v in top]
    return dict(profile_steps=steps, kernel_names=len(agg), kernel_count_per_step=sum(v[0] for v in agg.values()) / steps,
                kernel_sum_ms_per_step=round(tot / steps / 1e3, 3), categories=cats, top_kernels=top)


# ----------------------------------------------------------------------------- steps and timing
class Trainer:
    def __init__(self, c, B, S, ckpt, seed=0, microbatches=1):
        torch.manual_seed(seed)
        self.c, self.B, self.S, self.V, self.M = c, B, S, c["vocab"], microbatches
        with torch.device("cuda"):
            self.model = build_model(c)
        self.model.ckpt = ckpt
        self.model.train()
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-4, betas=(0.9, 0.95), weight_decay=0.1,
                                     fused=True)
        if microbatches == 1:
            ids = torch.randint(0, self.V, (B, S + 1), device="cuda")
            self.x, self.y = ids[:, :-1].contiguous(), ids[:, 1:].contiguous()
        else:  # one (B, S) batch of different token ids per micro-batch
            ids = [torch.randint(0, self.V, (B, S + 1), device="cuda") for _ in range(microbatches)]
            self.xs = [t[:, :-1].contiguous() for t in ids]
            self.ys = [t[:, 1:].contiguous() for t in ids]

    def fwd_loss(self, i=None):
        x, y = (self.x, self.y) if i is None else (self.xs[i], self.ys[i])
        with torch.autocast("cuda", dtype=BF):
            logits = self.model(x)
            loss = F.cross_entropy(logits.float().view(-1, self.V), y.view(-1))
        return loss

    def opt_step(self):
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)

    def step(self):
        if self.M == 1:
            loss = self.fwd_loss()
            loss.backward()
            self.opt_step()
            return loss
        tot = 0.0
        for i in range(self.M):  # gradient accumulation: loss / M, backward M times, one step
            loss = self.fwd_loss(i) / self.M
            loss.backward()
            tot = tot + loss.detach()
        self.opt_step()
        return tot

    def phase_step(self):
        """Events [fwd start, fwd end, bwd end] per micro-batch, then the optimizer's end."""
        if self.M == 1:
            e = [torch.cuda.Event(enable_timing=True) for _ in range(4)]
            e[0].record()
            loss = self.fwd_loss()
            e[1].record()
            loss.backward()
            e[2].record()
            self.opt_step()
            e[3].record()
            return e, loss
        e = []
        for i in range(self.M):
            ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
            ev[0].record()
            loss = self.fwd_loss(i) / self.M
            ev[1].record()
            loss.backward()
            ev[2].record()
            e += ev
        e.append(torch.cuda.Event(enable_timing=True))
        self.opt_step()
        e[-1].record()
        return e, loss

    @staticmethod
    def phase_times(e):
        """(forward+loss, backward, optimizer) seconds of one phase_step, summed over micro-batches."""
        if len(e) == 4:
            return e[0].elapsed_time(e[1]) / 1e3, e[1].elapsed_time(e[2]) / 1e3, e[2].elapsed_time(e[3]) / 1e3
        n = (len(e) - 1) // 3
        fwd = sum(e[3 * i].elapsed_time(e[3 * i + 1]) for i in range(n)) / 1e3
        bwd = sum(e[3 * i + 1].elapsed_time(e[3 * i + 2]) for i in range(n)) / 1e3
        return fwd, bwd, e[3 * n - 1].elapsed_time(e[-1]) / 1e3

    def timed(self, n):
        """n steps, a CUDA event between consecutive steps, synchronized before and after."""
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(n + 1)]
        torch.cuda.synchronize()
        h0 = time.perf_counter()
        ev[0].record()
        loss = None
        for i in range(n):
            loss = self.step()
            ev[i + 1].record()
        torch.cuda.synchronize()
        host = (time.perf_counter() - h0) / n
        return [ev[i].elapsed_time(ev[i + 1]) / 1e3 for i in range(n)], host, loss


def spread(ts):
    return dict(median=statistics.median(ts), min=min(ts), max=max(ts), n=len(ts))


def free_cuda():
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()


def measure(name, c, B, S, ckpt, sampler, max_sm, M=1):
    """Pass 1: timing, memory, phases, sustained clocks."""
    free_cuda()
    tr = Trainer(c, B, S, ckpt, microbatches=M)
    params, matmul = count_params(tr.model)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    mem_static = torch.cuda.memory_allocated()
    t_cfg0 = time.time()
    loss_first = None
    for i in range(WARMUP):
        l = tr.step()
        if i == 0:
            loss_first = l.detach()
    torch.cuda.synchronize()
    t_timed0 = time.time()
    ts, host, loss = tr.timed(TIMED)
    t_timed1 = time.time()
    peak = torch.cuda.max_memory_allocated()
    peak_reserved = torch.cuda.max_memory_reserved()
    phases = []
    for _ in range(PHASE_STEPS):
        e, _ = tr.phase_step()
        phases.append(e)
    torch.cuda.synchronize()
    fwd, bwd, opt = (list(t) for t in zip(*[Trainer.phase_times(e) for e in phases]))
    # sustained: keep stepping >= SUSTAIN_S so that >= 2 nvidia-smi samples land in the config
    t_s0 = time.time()
    sus = []
    while time.time() - t_s0 < SUSTAIN_S:
        t, _, loss = tr.timed(10)
        sus += t
    t_s1 = time.time()
    loss_last = loss.item()
    loss_first = loss_first.item()
    del tr
    model_fl, hw_fl = step_flops(c, B, S, matmul, ckpt)
    model_fl, hw_fl = M * model_fl, M * hw_fl  # all micro-batches
    st = spread(ts)
    tok = M * B * S
    r = dict(kind="train_step", device=DEVICE, config=name, model=c["model"], family=c["family"],
             layers=c["layers"], d_model=c["d"], heads=c["heads"], kv_heads=c.get("kv_heads", c["heads"]),
             head_dim=c.get("head_dim", c["d"] // c["heads"]), ffn=c.get("ffn", 4 * c["d"]), vocab=c["vocab"],
             truncated_from_layers=c.get("truncated_from_layers"),
             batch=B, seq=S, microbatches=M, global_batch=M * B, tokens_per_step=tok, checkpointing=ckpt,
             checkpoint_impl="torch.utils.checkpoint per block, use_reentrant=False" if ckpt else None,
             params=params, matmul_params=matmul, tied_embeddings=c["family"] == "gpt2",
             precision="torch.autocast bf16, fp32 master weights; loss cross_entropy on logits.float()",
             optimizer="torch.optim.AdamW(fused=True), zero_grad(set_to_none=True)", attn_impl=ATTN_IMPL,
             execution="eager", warmup_steps=WARMUP, timed_steps=TIMED,
             step_s=dict(median=st["median"], min=st["min"], max=st["max"]), step_s_all=[round(t, 6) for t in ts],
             host_step_s_mean=host, tokens_per_s=tok / st["median"],
             peak_mem_bytes=peak, peak_mem_gib=round(peak / 2 ** 30, 3), peak_reserved_bytes=peak_reserved,
             static_mem_bytes_before_first_step=mem_static,
             phase_s=dict(forward_loss=statistics.median(fwd), backward=statistics.median(bwd),
                          optimizer=statistics.median(opt), steps=PHASE_STEPS,
                          note="medians over 3 steps after the timed ones; optimizer = AdamW.step + zero_grad"),
             sustained_step_s=dict(spread(sus), seconds=round(t_s1 - t_s0, 2)),
             model_flops_per_step=model_fl, hardware_flops_per_step=hw_fl,
             model_tflops_per_s=round(model_fl / st["median"] / 1e12, 1),
             hardware_tflops_per_s=round(hw_fl / st["median"] / 1e12, 1),
             loss_first=loss_first, loss_last=loss_last,
             finite=bool(torch.isfinite(torch.tensor([loss_first, loss_last])).all()),
             clocks_timed=sampler.stats(t_timed0, t_timed1, max_sm) if sampler else None,
             clocks_config=sampler.stats(t_cfg0, t_s1, max_sm) if sampler else None,
             profiled=False, heldout=name in HELDOUT_SET, seconds=st["median"])
    if M > 1:
        r["accumulation"] = (f"{M} micro-batches of {B}x{S} (different ids): forward, loss/{M}, backward each; "
                             "one AdamW step + zero_grad; phase_s forward/backward summed over micro-batches")
    cc = r["clocks_config"] or {}
    r["power_throttled"] = cc.get("power_throttled")
    r["sm_clock_min_mhz"] = (cc.get("sm_clock_mhz") or {}).get("min")
    r["sm_clock_mean_mhz"] = (cc.get("sm_clock_mhz") or {}).get("mean")
    p = r["phase_s"]
    log(f"{name:18s} step {st['median']*1e3:8.2f} ms (min {st['min']*1e3:.2f} max {st['max']*1e3:.2f}, host "
        f"{host*1e3:.2f})  fwd {p['forward_loss']*1e3:.2f} bwd {p['backward']*1e3:.2f} opt {p['optimizer']*1e3:.2f}  "
        f"{tok/st['median']:,.0f} tok/s  peak {peak/2**30:.2f} GiB  {r['model_tflops_per_s']} TFLOP/s(model)  "
        f"sustained {statistics.median(sus)*1e3:.2f} ms x{len(sus)}  sm {cc.get('sm_clock_mhz')} "
        f"reasons {cc.get('reasons')}  loss {loss_first:.3f}->{loss_last:.3f}")
    return r


def profile_config(name, c, B, S, ckpt, r, M=1):
    """Pass 2: repeat timing, then torch.profiler over PROFILE_STEPS steps."""
    free_cuda()
    tr = Trainer(c, B, S, ckpt, seed=1, microbatches=M)
    for _ in range(WARMUP):
        tr.step()
    ts, host, _ = tr.timed(TIMED)
    st = spread(ts)
    r["repeat_step_s"] = dict(median=st["median"], min=st["min"], max=st["max"], host_step_s_mean=host,
                              note="pass 2, fresh model; after the profiler ran for earlier configs")
    agg = profile_steps(tr.step, PROFILE_STEPS)
    torch.cuda.synchronize()
    del tr
    prof = summarize_profile(agg, PROFILE_STEPS)
    r.update(prof)
    r["profiled"] = True
    r["kernel_busy_fraction"] = round(prof["kernel_sum_ms_per_step"] / 1e3 / r["step_s"]["median"], 3)
    cats = prof["categories"]
    log(f"{name:18s} repeat {st['median']*1e3:8.2f} ms; profile {prof['kernel_sum_ms_per_step']:.2f} ms kernels/step, "
        f"{prof['kernel_count_per_step']:.0f} launches/step: " +
        " ".join(f"{k}={v['per_step_ms']:.2f}" for k, v in cats.items()))
    for k in prof["top_kernels"][:12]:
        log(f"    {k['per_step_us']:10.1f} us/step x{k['count']:5d} [{k['category']}] {k['name'][:110]}")


# ----------------------------------------------------------------------------- main
def probe_gqa():
    """enable_gqa only where it runs forward and backward on a fused (non-math) backend."""
    try:
        from torch.nn.attention import sdpa_kernel, SDPBackend
        q = torch.randn(1, 32, 256, 128, device="cuda", dtype=BF, requires_grad=True)
        k = torch.randn(1, 8, 256, 128, device="cuda", dtype=BF, requires_grad=True)
        v = torch.randn(1, 8, 256, 128, device="cuda", dtype=BF, requires_grad=True)
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION, SDPBackend.EFFICIENT_ATTENTION]):
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            o.float().square().sum().backward()
        kr, vr = (t.detach().float().repeat_interleave(4, 1) for t in (k, v))
        ref = F.scaled_dot_product_attention(q.detach().float(), kr, vr, is_causal=True)
        err = ((o.float() - ref).norm() / ref.norm()).item()
        torch.cuda.synchronize()
        log(f"enable_gqa runs fwd+bwd on a fused backend; rel err vs fp32 repeat_kv {err:.2e}")
        return "sdpa_enable_gqa" if err < 2e-2 else "sdpa_repeat_kv"
    except Exception as e:  # noqa
        log(f"enable_gqa not usable on fused backends ({type(e).__name__}: {str(e)[:200]}): repeat_kv")
        return "sdpa_repeat_kv"


def summary():
    print(f"\n================ SUMMARY {TAG} {DEVICE} ================")
    print(f"{'config':24s} {'step ms':>8s} {'fwd':>7s} {'bwd':>7s} {'opt':>6s} {'tok/s':>9s} {'GiB':>6s} "
          f"{'TF/s':>5s} {'smMin':>5s} {'smMean':>6s} thr | " + " ".join(f"{k[:7]:>7s}" for k in CATEGORIES))
    for r in RECORDS:
        if r["kind"] != "train_step":
            continue
        p = r["phase_s"]
        cats = r.get("categories") or {}
        print(f"{r['config']:24s} {r['step_s']['median']*1e3:8.2f} {p['forward_loss']*1e3:7.2f} "
              f"{p['backward']*1e3:7.2f} {p['optimizer']*1e3:6.2f} {r['tokens_per_s']:9.0f} {r['peak_mem_gib']:6.2f} "
              f"{r['model_tflops_per_s']:5.0f} {r['sm_clock_min_mhz'] or 0:5.0f} {r['sm_clock_mean_mhz'] or 0:6.0f} "
              f"{'Y' if r['power_throttled'] else 'n':>3s} | " +
              " ".join(f"{cats[k]['per_step_ms']:7.2f}" if k in cats else f"{'-':>7s}" for k in CATEGORIES))
    print("errors:", len(META["errors"]), " skipped:", META["skipped"])
    for e in META["errors"]:
        print(e["where"], e["trace"][-800:])


def main():
    global ATTN_IMPL, DEVICE
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    props = torch.cuda.get_device_properties(0)
    DEVICE = device_id(props.name)
    fields = ("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,"
              "clocks.applications.graphics,power.limit,memory.total,pstate")
    info = smi(fields) or smi("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit")
    max_sm = _num((info or {}).get("clocks.max.sm"))
    RECORDS.append(dict(
        kind="device", device=DEVICE, name=props.name, sms=props.multi_processor_count,
        l2_bytes=getattr(props, "L2_cache_size", None), mem_bytes=props.total_memory,
        torch=torch.__version__, cuda=torch.version.cuda,
        cudnn=torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        python=sys.version.split()[0], nvidia_smi=info,
        sdpa_backends_enabled=dict(flash=torch.backends.cuda.flash_sdp_enabled(),
                                   mem_efficient=torch.backends.cuda.mem_efficient_sdp_enabled(),
                                   cudnn=getattr(torch.backends.cuda, "cudnn_sdp_enabled", lambda: None)(),
                                   math=torch.backends.cuda.math_sdp_enabled()),
        tf32_matmul=False))
    log("device", json.dumps(RECORDS[0]))
    sampler = None
    try:
        sampler = SmiSampler()
        sampler.start()
    except Exception as e:  # noqa
        log("no nvidia-smi sampler:", e)
    ATTN_IMPL = probe_gqa()
    RECORDS[0]["gqa_attn_impl"] = ATTN_IMPL
    flush()
    # bring clocks up before the first timed case (~1 s of large bf16 matmuls), as measure_llm.py
    a = torch.randn(8192, 8192, device="cuda", dtype=BF)
    t0 = time.time()
    while time.time() - t0 < 1.0:
        for _ in range(10):
            a @ a
        torch.cuda.synchronize()
    del a
    free_cuda()
    todo = select(ONLY)
    t_pass = time.time()
    for name, c, B, S, ckpt, M in map(unpack, todo):
        if time.time() - T_START > DEADLINE_S:
            META["skipped"].append(f"{name}: deadline before timing")
            continue
        try:
            r = measure(name, c, B, S, ckpt, sampler, max_sm, M)
            RECORDS.append(r)
            BY_NAME[name] = r
        except torch.cuda.OutOfMemoryError:
            META["skipped"].append(f"{name}: OOM")
            log("SKIP", name, "OOM")
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"where": f"measure {name}", "trace": tb[-3000:]})
            log(f"ERROR {name}:\n{tb}")
        free_cuda()
        flush()
    META["pass_s"]["timing"] = round(time.time() - t_pass, 1)
    t_pass = time.time()
    for name, c, B, S, ckpt, M in map(unpack, todo):
        if name not in BY_NAME:
            continue
        if time.time() - T_START > DEADLINE_S:
            META["skipped"].append(f"{name}: deadline before profile")
            continue
        try:
            profile_config(name, c, B, S, ckpt, BY_NAME[name], M)
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"where": f"profile {name}", "trace": tb[-3000:]})
            log(f"ERROR profile {name}:\n{tb}")
        free_cuda()
        flush()
    META["pass_s"]["profile"] = round(time.time() - t_pass, 1)
    if sampler is not None:
        sampler.stop_ev.set()
        sampler.join(timeout=15)
        sm = [s[1] for s in sampler.samples if s[1] is not None]
        if sm:
            META["smi_sm_clock_mhz"] = dict(min=min(sm), median=statistics.median(sm), max=max(sm), n=len(sm))
    META["nvidia_smi_after"] = smi("clocks.sm,clocks.mem,power.draw,temperature.gpu")
    flush()
    summary()
    log("total wall", round(time.time() - T_START, 1), "s")


if __name__ == "__main__":
    main()
