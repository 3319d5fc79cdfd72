"""Data-parallel training-step GPU measurements for hwsim: DDP and FSDP2 over the GPUs of one host.

Usage (on a device machine with N GPUs, from the repository root):
    set -o pipefail
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1  # keep multicast off
    PYTHONUNBUFFERED=1 OMP_NUM_THREADS=8 python3 -m torch.distributed.run --standalone --nproc_per_node=N \\
        scripts/measure/measure_train_dist.py TAG [config,config,...] 2>&1 | tee $OUT/TAG.log
  e.g. TAG h200x2_train_dist on nvidia-h200-x2.  (Run once with N=1 on one H200 as a check:
  data/measurements/h200_train_dist_ws1.{jsonl,log}: the wrappers' own cost, no communication.)
  configs (default: all, in this order):
    ddp_gpt2_b8, fsdp2_llama8b4l_b1, ddp_gpt2m_b8, fsdp2_llama8b4l_b2,
    fsdp2_llama8b4l_b2_ckpt, ddp_gpt2m_b8_ckpt, fsdp2_gpt2m_b8   (`_ckpt`: every block in
    torch.utils.checkpoint(use_reentrant=False), inside the wrapper)
Writes $OUT/TAG.jsonl from rank 0: a `device` record first, one `train_step_dist` record per config,
a `run_meta` record last (rewritten after every config, so a timeout still leaves data).  Rank 0
samples nvidia-smi once a second for every GPU; the samples go to stdout as `smi` lines.

The models, the loss and the optimizer are those of measure_train.py (imported from beside this
file): GPT-2 124M / 355M and the Llama-3-8B shape cut to 4 layers, random weights (the same on every
rank), synthetic token ids (different on every rank), F.cross_entropy(logits.float()) over the full
vocabulary, torch.optim.AdamW(fused=True) (foreach if fused fails on the sharded parameters),
zero_grad(set_to_none=True); eager, no torch.compile, no CUDA graphs; TF32 off.
  * ddp: torch.nn.parallel.DistributedDataParallel(device_ids=[local rank]) with its defaults
    (bucket_cap_mb 25, gradient_as_bucket_view False, static_graph False, broadcast_buffers True),
    NCCL; forward under torch.autocast(bf16) with fp32 parameters, so fp32 gradients are
    all-reduced (averaged), overlapped with the backward; every rank holds the full AdamW state.
  * fsdp2: torch.distributed.fsdp.fully_shard on every transformer block, then on the root module
    (embedding, final norm, lm_head), reshard_after_forward left at its default,
    MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32); no autocast: parameters are
    all-gathered in bf16 and every op runs in bf16 (norms, RoPE, residual stream too), gradients are
    reduce-scattered in fp32 into fp32 sharded master parameters; AdamW runs on the shards.
`batch` is per GPU; tokens_per_step and tokens_per_s count all ranks.

Method per config: build, 3 warm-up steps, barrier, 10 steps bracketed by CUDA events on every rank
(per-rank median/min/max; the record's step_s is the slowest rank's, the step being the same on all
ranks through the collectives); phase split (forward+loss, backward, optimizer; medians of 3);
sustained steps for >= 3 s (so that nvidia-smi samples fall inside); 10 steps without gradient
synchronisation (DDP no_sync / FSDP2 set_requires_gradient_sync(False): the step less the
gradient all-reduce / reduce-scatter, all-gathers kept) as a bound on the exposed communication
(FSDP2: the sharded parameters then get no gradient, so AdamW skips them and that step also lacks
the optimizer);
torch.profiler (CUDA activity) over 2 steps on rank 0 (NCCL kernels in category `comm`; they
overlap compute, so the category sums can exceed the step), then 2 steps with CPU activity alone
(`profile.host`: kernel launches, operator calls and their host time per step, the top operators
and wrapper scopes by self CPU time, for a host timeline); then the same model, batch and
sequence as a plain single-GPU step of measure_train.py (autocast bf16, fp32 master weights, no
wrapper) on every rank at once, as a same-machine baseline.
"""
import datetime, json, math, os, statistics, subprocess, sys, threading, time, traceback
from contextlib import nullcontext

import torch
import torch.distributed as dist
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure_train as mt  # noqa: E402

OUT = os.environ.get("OUT", ".")
TAG = sys.argv[1] if len(sys.argv) > 1 else "train_dist"
ONLY = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else None
DEADLINE_S = float(os.environ.get("TRAIN_DEADLINE_S", "420"))
T_START = time.time()
BF = torch.bfloat16
WARMUP, TIMED, PHASE_STEPS, SUSTAIN_S, PROFILE_STEPS, TOPK = 3, 10, 3, 3.0, 2, 25

CONFIGS = [  # (name, model, batch per GPU, seq, strategy, checkpointing)
    ("ddp_gpt2_b8", mt.GPT2, 8, 1024, "ddp", False),
    ("fsdp2_llama8b4l_b1", mt.LLAMA, 1, 2048, "fsdp2", False),
    ("ddp_gpt2m_b8", mt.GPT2M, 8, 1024, "ddp", False),
    ("fsdp2_llama8b4l_b2", mt.LLAMA, 2, 2048, "fsdp2", False),
    ("fsdp2_llama8b4l_b2_ckpt", mt.LLAMA, 2, 2048, "fsdp2", True),
    ("ddp_gpt2m_b8_ckpt", mt.GPT2M, 8, 1024, "ddp", True),
    ("fsdp2_gpt2m_b8", mt.GPT2M, 8, 1024, "fsdp2", False),
]
PRECISION = {
    "ddp": "torch.autocast bf16, fp32 master weights; DDP all-reduces fp32 gradients (average); "
           "loss cross_entropy on logits.float()",
    "fsdp2": "FSDP2 MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32), no torch.autocast: bf16 "
             "all-gather and bf16 compute everywhere (norms, RoPE, residual stream), fp32 reduce-scatter "
             "into fp32 sharded master weights; loss cross_entropy on logits.float()",
}

RANK = WORLD = LOCAL = 0
RECORDS, META = [], {"errors": [], "skipped": [], "pass_s": {}}
DEVICE = "unknown"


def log(*a):
    sys.stdout.write(" ".join([f"[{TAG} r{RANK} {time.time() - T_START:6.1f}s]"] + [str(x) for x in a]) + "\n")
    sys.stdout.flush()


def log0(*a):
    if RANK == 0:
        log(*a)


def flush():
    if RANK != 0:
        return
    with open(os.path.join(OUT, f"{TAG}.jsonl"), "w") as f:
        for r in RECORDS:
            f.write(json.dumps(r) + "\n")
        f.write(json.dumps(dict(kind="run_meta", device=DEVICE, world_size=WORLD,
                                wall_s=round(time.time() - T_START, 1), **META)) + "\n")


# ----------------------------------------------------------------------------- nvidia-smi, all GPUs
class SmiAll(threading.Thread):
    def __init__(self, period=1.0):
        super().__init__(daemon=True)
        self.period, self.samples, self.stop_ev = period, [], threading.Event()
        reason = next((f for f in ("clocks_event_reasons.active", "clocks_throttle_reasons.active")
                       if mt.smi(f)), None)
        self.fields = "index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu" + \
            ("," + reason if reason else "")
        log("smi columns: host_s," + self.fields)

    def run(self):
        while not self.stop_ev.is_set():
            t0 = time.time()
            try:
                p = subprocess.run(["nvidia-smi", f"--query-gpu={self.fields}", "--format=csv,noheader,nounits"],
                                   capture_output=True, text=True, timeout=10)
                t1 = time.time()
                for line in p.stdout.strip().split("\n") if p.returncode == 0 else []:
                    v = [x.strip() for x in line.split(",")]
                    if len(v) < 6:
                        continue
                    s = (0.5 * (t0 + t1), int(v[0]), mt._num(v[1]), mt._num(v[2]), mt._num(v[3]), mt._num(v[4]),
                         mt._num(v[5]), mt._mask(v[6]) if len(v) > 6 else None)
                    self.samples.append(s)
                    sys.stdout.write(f"smi {s[0] - T_START:8.2f}s gpu{v[0]} sm={v[1]} MHz mem={v[2]} MHz "
                                     f"power={v[3]} W temp={v[4]} C util={v[5]} % "
                                     f"reasons={v[6] if len(v) > 6 else '?'}\n")
                sys.stdout.flush()
            except Exception as e:  # noqa
                sys.stdout.write(f"smi error {e}\n")
            self.stop_ev.wait(max(0.05, self.period - (time.time() - t0)))

    def stats(self, t0, t1, max_sm):
        out = {}
        for g in sorted({s[1] for s in self.samples}):
            ss = [s for s in list(self.samples) if s[1] == g and t0 <= s[0] <= t1]
            if not ss:
                out[f"gpu{g}"] = dict(n=0)
                continue
            sm = [s[2] for s in ss if s[2] is not None]
            pw = [s[4] for s in ss if s[4] is not None]
            masks = [s[7] for s in ss if s[7] is not None]
            union = 0
            for m in masks:
                union |= m
            n_power = sum(1 for m in masks if m & mt.POWER_BITS)
            n_thermal = sum(1 for m in masks if m & mt.THERMAL_BITS)
            out[f"gpu{g}"] = dict(
                n=len(ss), sm_clock_mhz=dict(min=min(sm), mean=round(statistics.mean(sm), 1), max=max(sm)) if sm else None,
                power_w=dict(mean=round(statistics.mean(pw), 1), max=max(pw)) if pw else None,
                temp_c_max=max((s[5] for s in ss if s[5] is not None), default=None),
                reasons_union=hex(union) if masks else None,
                reasons=[n for b, n in mt.REASON_BITS.items() if union & b],
                samples_power_capped=n_power, samples_thermal=n_thermal,
                power_throttled=bool(n_power > 0 and sm and max_sm and min(sm) < max_sm))
        return out


# ----------------------------------------------------------------------------- wrapped models
def fsdp_api():
    try:
        from torch.distributed.fsdp import fully_shard, MixedPrecisionPolicy
    except ImportError:
        from torch.distributed._composable.fsdp import fully_shard, MixedPrecisionPolicy
    return fully_shard, MixedPrecisionPolicy


class DistTrainer:
    def __init__(self, c, B, S, strategy, ckpt=False, seed=0):
        torch.manual_seed(seed)  # the same initial weights on every rank
        self.c, self.B, self.S, self.V, self.strategy = c, B, S, c["vocab"], strategy
        with torch.device("cuda"):
            model = mt.build_model(c)
        model.train()
        model.ckpt = ckpt  # torch.utils.checkpoint per block (use_reentrant=False), inside the wrapper
        self.params, self.matmul = mt.count_params(model)
        self.inner = model
        if strategy == "ddp":
            from torch.nn.parallel import DistributedDataParallel as DDP
            self.model = DDP(model, device_ids=[LOCAL])  # defaults: bucket_cap_mb 25
            self.autocast = True
            self.wrap = dict(bucket_cap_mb=getattr(self.model, "bucket_bytes_cap", 25 * 2 ** 20) / 2 ** 20,
                             gradient_as_bucket_view=False, static_graph=False, find_unused_parameters=False)
        elif strategy == "fsdp2":
            fully_shard, MPP = fsdp_api()
            mp = MPP(param_dtype=BF, reduce_dtype=torch.float32)
            blocks = model.layers if c["family"] == "llama" else model.blocks
            for b in blocks:
                fully_shard(b, mp_policy=mp)
            fully_shard(model, mp_policy=mp)
            self.model = model
            self.autocast = False
            self.wrap = dict(fully_shard="each block, then the root", reshard_after_forward="default",
                             mp_policy=repr(mp), fsdp_module=fully_shard.__module__)
        else:
            raise ValueError(strategy)
        self.opt_impl = "fused"
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-4, betas=(0.9, 0.95), weight_decay=0.1,
                                     fused=True)
        torch.manual_seed(1000 * (seed + 1) + RANK)  # different data on every rank
        ids = torch.randint(0, self.V, (B, S + 1), device="cuda")
        self.x, self.y = ids[:, :-1].contiguous(), ids[:, 1:].contiguous()

    def fwd_loss(self):
        with torch.autocast("cuda", dtype=BF) if self.autocast else nullcontext():
            logits = self.model(self.x)
            loss = F.cross_entropy(logits.float().view(-1, self.V), self.y.view(-1))
        return loss

    def opt_step(self):
        try:
            self.opt.step()
        except Exception as e:  # fused AdamW on DTensor shards not supported: foreach
            if self.opt_impl != "fused":
                raise
            log(f"fused AdamW failed ({type(e).__name__}: {str(e)[:200]}); foreach instead")
            self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-4, betas=(0.9, 0.95), weight_decay=0.1,
                                         foreach=True)
            self.opt_impl = "foreach (fused failed)"
            self.opt.step()
        self.opt.zero_grad(set_to_none=True)

    def step(self):
        loss = self.fwd_loss()
        loss.backward()
        self.opt_step()
        return loss

    def phase_step(self):
        e = [torch.cuda.Event(enable_timing=True) for _ in range(4)]
        e[0].record()
        loss = self.fwd_loss()
        e[1].record()
        loss.backward()
        e[2].record()
        self.opt_step()
        e[3].record()
        return e, loss

    def timed(self, n):
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(n + 1)]
        torch.cuda.synchronize()
        h0 = time.perf_counter()
        ev[0].record()
        loss = None
        for i in range(n):
            loss = self.step()
            ev[i + 1].record()
        torch.cuda.synchronize()
        return [ev[i].elapsed_time(ev[i + 1]) / 1e3 for i in range(n)], (time.perf_counter() - h0) / n, loss

    def no_sync(self):
        if self.strategy == "ddp":
            return self.model.no_sync()
        m = self.model

        class _Ctx:
            def __enter__(self_):
                m.set_requires_gradient_sync(False)

            def __exit__(self_, *a):
                m.set_requires_gradient_sync(True)
        return _Ctx()


def gather(obj):
    out = [None] * WORLD
    dist.all_gather_object(out, obj)
    return out


def categorize(name):
    n = name.lower()
    return "comm" if "nccl" in n else mt.categorize(name)


def host_profile(tr):
    """The host's side of PROFILE_STEPS steps (rank 0, CPU activity only): what a host timeline would
    need. Per step: kernel launches (cudaLaunchKernel / cuLaunchKernelEx calls) and their host time,
    operator calls dispatched (aten:: and c10d::), the host wall time, and the top operators and
    Python-level wrapper scopes (FSDP::, DDP reducer) by self CPU time."""
    from torch.profiler import profile, ProfilerActivity
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    with profile(activities=[ProfilerActivity.CPU]) as p:
        for _ in range(PROFILE_STEPS):
            tr.step()
        torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    launches = launch_us = aten = aten_self = 0.0
    rows = []
    for e in p.key_averages():
        n, cnt, self_us = e.key, e.count, e.self_cpu_time_total
        if "LaunchKernel" in n:
            launches += cnt
            launch_us += self_us
        if n.startswith("aten::") or n.startswith("c10d::"):
            aten += cnt
            aten_self += self_us
        rows.append((n, cnt, self_us))
    rows.sort(key=lambda r: -r[2])
    per = PROFILE_STEPS
    return dict(steps=per, host_wall_ms_per_step=round(wall / per * 1e3, 3),
                kernel_launches_per_step=launches / per, launch_self_us_per_step=round(launch_us / per, 1),
                operator_calls_per_step=aten / per, operator_self_us_per_step=round(aten_self / per, 1),
                note="CPU-activity profile (profiler overhead included: wall is an upper bound)",
                top_self_cpu=[dict(name=n[:200], count_per_step=c / per, self_us_per_step=round(u / per, 1))
                              for n, c, u in rows[:TOPK]])


def summarize_profile(agg, steps):
    cats = {k: dict(total_us=0.0, count=0) for k in mt.CATEGORIES + ["comm"]}
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
    comm = cats["comm"]["total_us"]
    return dict(profile_steps=steps, profile_rank=0, kernel_names=len(agg),
                kernel_count_per_step=sum(v[0] for v in agg.values()) / steps,
                kernel_sum_ms_per_step=round(tot / steps / 1e3, 3),
                kernel_sum_ms_per_step_without_comm=round((tot - comm) / steps / 1e3, 3),
                categories=cats, top_kernels=top)


def measure(name, c, B, S, strategy, ckpt, sampler, max_sm):
    mt.free_cuda()
    dist.barrier()
    tr = DistTrainer(c, B, S, strategy, ckpt)
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
    dist.barrier()
    t_timed0 = time.time()
    ts, host, loss = tr.timed(TIMED)
    t_timed1 = time.time()
    peak, peak_res = torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved()
    phases = []
    for _ in range(PHASE_STEPS):
        e, _ = tr.phase_step()
        phases.append(e)
    torch.cuda.synchronize()
    fwd = statistics.median(e[0].elapsed_time(e[1]) / 1e3 for e in phases)
    bwd = statistics.median(e[1].elapsed_time(e[2]) / 1e3 for e in phases)
    opt = statistics.median(e[2].elapsed_time(e[3]) / 1e3 for e in phases)
    # sustained: the same number of steps on every rank, >= SUSTAIN_S at the slowest rank's median
    med = torch.tensor([statistics.median(ts)], device="cuda")
    dist.all_reduce(med, op=dist.ReduceOp.MAX)
    n_sus = max(20, int(math.ceil(SUSTAIN_S / med.item() / 10)) * 10)
    t_s0 = time.time()
    sus, _, loss = tr.timed(n_sus)
    t_s1 = time.time()
    # without gradient synchronisation
    try:
        with tr.no_sync():
            tr.timed(2)
            nosync, _, _ = tr.timed(TIMED)
        nosync_st = dict(mt.spread(nosync), note="DDP no_sync() / FSDP2 set_requires_gradient_sync(False): "
                                                  "no gradient all-reduce / reduce-scatter; all-gathers kept"
                                                  + ("; FSDP2: no sharded grads, so no AdamW update either"
                                                     if strategy == "fsdp2" else ""))
    except Exception as e:  # noqa
        nosync_st = dict(error=f"{type(e).__name__}: {str(e)[:300]}")
    tr.timed(2)  # back to synchronised gradients before profiling
    # profiler on rank 0 (all ranks step)
    prof = None
    if RANK == 0:
        from torch.profiler import profile, ProfilerActivity
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as p:
            for _ in range(PROFILE_STEPS):
                tr.step()
            torch.cuda.synchronize()
        agg = {}
        for ev in p.events():
            if str(getattr(ev, "device_type", "")).endswith("CUDA"):
                d = agg.setdefault(ev.name, [0, 0.0])
                d[0] += 1
                d[1] += ev.time_range.end - ev.time_range.start
        prof = summarize_profile(agg, PROFILE_STEPS)
        prof["host"] = host_profile(tr)
    else:
        for _ in range(2 * PROFILE_STEPS):  # the CUDA profile's steps, then host_profile's
            tr.step()
        torch.cuda.synchronize()
    loss_last, loss_first = loss.item(), loss_first.item()
    params, matmul, wrap, opt_impl = tr.params, tr.matmul, tr.wrap, tr.opt_impl
    del tr
    mt.free_cuda()
    dist.barrier()
    # same-machine single-GPU baseline (measure_train.py's step), every rank at once
    try:
        bt = mt.Trainer(c, B, S, ckpt, seed=1)
        for _ in range(WARMUP):
            bt.step()
        dist.barrier()
        bts, _, _ = bt.timed(TIMED)
        del bt
        base = dict(mt.spread(bts), note="measure_train.py single-GPU step (autocast bf16, fp32 master, no "
                                         "wrapper, no communication), same batch/seq, all ranks at once")
    except Exception as e:  # noqa
        base = dict(error=f"{type(e).__name__}: {str(e)[:300]}")
    mt.free_cuda()
    mine = dict(rank=RANK, step_s=mt.spread(ts), step_s_all=[round(t, 6) for t in ts], host_step_s_mean=host,
                phase_s=dict(forward_loss=fwd, backward=bwd, optimizer=opt), sustained_step_s=mt.spread(sus),
                no_sync_step_s=nosync_st, single_gpu_baseline_step_s=base, peak_mem_bytes=peak,
                peak_mem_gib=round(peak / 2 ** 30, 3), peak_reserved_bytes=peak_res,
                static_mem_bytes_before_first_step=mem_static, loss_first=loss_first, loss_last=loss_last,
                opt_impl=opt_impl)
    per_rank = gather(mine)
    if RANK != 0:
        return None
    slow = max(per_rank, key=lambda r: r["step_s"]["median"])
    model_fl, hw_fl = mt.step_flops(c, B, S, matmul, False)
    tok = B * S * WORLD
    st = slow["step_s"]
    r = dict(kind="train_step_dist", device=DEVICE, config=name, strategy=strategy, world_size=WORLD,
             model=c["model"], family=c["family"], layers=c["layers"], d_model=c["d"], heads=c["heads"],
             kv_heads=c.get("kv_heads", c["heads"]), head_dim=c.get("head_dim", c["d"] // c["heads"]),
             ffn=c.get("ffn", 4 * c["d"]), vocab=c["vocab"], truncated_from_layers=c.get("truncated_from_layers"),
             batch=B, seq=S, microbatches=1, global_batch=B * WORLD, tokens_per_step=tok, checkpointing=ckpt,
             checkpoint_impl="torch.utils.checkpoint per block, use_reentrant=False" if ckpt else None, params=params, matmul_params=matmul, tied_embeddings=c["family"] == "gpt2",
             precision=PRECISION[strategy], wrapper=wrap,
             optimizer=f"torch.optim.AdamW({opt_impl}), zero_grad(set_to_none=True)", attn_impl=mt.ATTN_IMPL,
             execution="eager", communication="NCCL, one process per GPU (torchrun)",
             warmup_steps=WARMUP, timed_steps=TIMED,
             step_s=dict(median=st["median"], min=st["min"], max=st["max"]), seconds=st["median"],
             step_s_per_rank_median=[p["step_s"]["median"] for p in per_rank],
             step_s_all=slow["step_s_all"], host_step_s_mean=slow["host_step_s_mean"], tokens_per_s=tok / st["median"],
             peak_mem_bytes=max(p["peak_mem_bytes"] for p in per_rank),
             peak_mem_gib=max(p["peak_mem_gib"] for p in per_rank),
             peak_reserved_bytes=max(p["peak_reserved_bytes"] for p in per_rank),
             static_mem_bytes_before_first_step=per_rank[0]["static_mem_bytes_before_first_step"],
             phase_s=dict(slow["phase_s"], steps=PHASE_STEPS, rank=slow["rank"],
                          note="medians over 3 steps of the slowest rank; optimizer = AdamW.step + zero_grad"),
             sustained_step_s=dict(slow["sustained_step_s"], seconds=round(t_s1 - t_s0, 2)),
             no_sync_step_s=slow["no_sync_step_s"], single_gpu_baseline_step_s=slow["single_gpu_baseline_step_s"],
             model_flops_per_step_per_gpu=model_fl, hardware_flops_per_step_per_gpu=hw_fl,
             model_tflops_per_s_per_gpu=round(model_fl / st["median"] / 1e12, 1),
             loss_first=loss_first, loss_last=loss_last,
             finite=all(math.isfinite(p["loss_first"]) and math.isfinite(p["loss_last"]) for p in per_rank),
             per_rank=per_rank,
             clocks_timed=sampler.stats(t_timed0, t_timed1, max_sm) if sampler else None,
             clocks_config=sampler.stats(t_cfg0, t_s1, max_sm) if sampler else None, heldout=True)
    cc = r["clocks_config"] or {}
    sm = [g["sm_clock_mhz"] for g in cc.values() if g.get("sm_clock_mhz")]
    r["power_throttled"] = any(g.get("power_throttled") for g in cc.values())
    r["sm_clock_min_mhz"] = min((s["min"] for s in sm), default=None)
    r["sm_clock_mean_mhz"] = round(statistics.mean(s["mean"] for s in sm), 1) if sm else None
    if prof:
        r.update(prof)
        r["profiled"] = True
        r["kernel_busy_fraction"] = round(prof["kernel_sum_ms_per_step_without_comm"] / 1e3 / st["median"], 3)
    ns = r["no_sync_step_s"].get("median")
    bs = r["single_gpu_baseline_step_s"].get("median")
    p = r["phase_s"]
    log(f"{name:20s} step {st['median']*1e3:8.2f} ms (ranks {[round(x*1e3, 2) for x in r['step_s_per_rank_median']]})"
        f"  fwd {p['forward_loss']*1e3:.2f} bwd {p['backward']*1e3:.2f} opt {p['optimizer']*1e3:.2f}"
        f"  no_sync {ns*1e3 if ns else float('nan'):.2f}  single-GPU {bs*1e3 if bs else float('nan'):.2f}"
        f"  {tok/st['median']:,.0f} tok/s  peak {r['peak_mem_gib']:.2f} GiB  sm min {r['sm_clock_min_mhz']} "
        f"mean {r['sm_clock_mean_mhz']} thr {r['power_throttled']}  loss {loss_first:.3f}->{loss_last:.3f}")
    if prof:
        log(f"{name:20s} profile {prof['kernel_sum_ms_per_step']:.2f} ms kernels/step "
            f"({prof['kernel_sum_ms_per_step_without_comm']:.2f} without comm): " +
            " ".join(f"{k}={v['per_step_ms']:.2f}" for k, v in prof["categories"].items()))
        for k in prof["top_kernels"][:12]:
            log(f"    {k['per_step_us']:10.1f} us/step x{k['count']:5d} [{k['category']}] {k['name'][:110]}")
    return r


def main():
    global RANK, WORLD, LOCAL, DEVICE
    RANK, WORLD = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    LOCAL = int(os.environ.get("LOCAL_RANK", 0))
    mt.TAG = f"{TAG} r{RANK}"
    torch.cuda.set_device(LOCAL)
    dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=180), device_id=torch.device("cuda", LOCAL))
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    props = torch.cuda.get_device_properties(LOCAL)
    DEVICE = mt.device_id(props.name)
    mt.DEVICE = DEVICE
    max_sm = None
    sampler = None
    if RANK == 0:
        info = mt.smi("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,memory.total")
        max_sm = mt._num((info or {}).get("clocks.max.sm"))
        topo = None
        try:
            topo = subprocess.run(["nvidia-smi", "topo", "-m"], capture_output=True, text=True, timeout=20).stdout
        except Exception:  # noqa
            pass
        try:
            nccl = ".".join(str(v) for v in torch.cuda.nccl.version())
        except Exception:  # noqa
            nccl = None
        RECORDS.append(dict(kind="device", device=DEVICE, name=props.name, sms=props.multi_processor_count,
                            world_size=WORLD, gpus_visible=torch.cuda.device_count(), mem_bytes=props.total_memory,
                            torch=torch.__version__, cuda=torch.version.cuda, nccl=nccl,
                            python=sys.version.split()[0], nvidia_smi=info, topo=topo,
                            env={k: os.environ.get(k) for k in ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST",
                                                                "NVSHMEM_DISABLE_NVLS", "NCCL_ALGO", "NCCL_PROTO",
                                                                "OMP_NUM_THREADS")},
                            tf32_matmul=False))
        log("device", json.dumps(RECORDS[0]))
        try:
            sampler = SmiAll()
            sampler.start()
        except Exception as e:  # noqa
            log("no nvidia-smi sampler:", e)
    impl = mt.probe_gqa()
    impls = gather(impl)
    mt.ATTN_IMPL = "sdpa_enable_gqa" if all(i == "sdpa_enable_gqa" for i in impls) else "sdpa_repeat_kv"
    if RECORDS:
        RECORDS[0]["gqa_attn_impl"] = mt.ATTN_IMPL
    flush()
    a = torch.randn(8192, 8192, device="cuda", dtype=BF)  # clocks up
    t0 = time.time()
    while time.time() - t0 < 1.0:
        for _ in range(10):
            a @ a
        torch.cuda.synchronize()
    del a
    mt.free_cuda()
    names = {cfg[0] for cfg in CONFIGS}
    if ONLY and any(n not in names for n in ONLY):
        raise SystemExit(f"unknown configs {[n for n in ONLY if n not in names]}")
    todo = [cfg for cfg in CONFIGS if not ONLY or cfg[0] in ONLY]
    t_pass = time.time()
    for name, c, B, S, strategy, ckpt in todo:
        go = torch.tensor([1 if time.time() - T_START < DEADLINE_S else 0], device="cuda")
        dist.all_reduce(go, op=dist.ReduceOp.MIN)
        if not go.item():
            META["skipped"].append(f"{name}: deadline")
            continue
        try:
            r = measure(name, c, B, S, strategy, ckpt, sampler, max_sm)
            if r:
                RECORDS.append(r)
        except Exception:
            tb = traceback.format_exc()
            META["errors"].append({"where": f"measure {name} rank {RANK}", "trace": tb[-3000:]})
            log(f"ERROR {name}:\n{tb}")
        mt.free_cuda()
        flush()
    META["pass_s"]["measure"] = round(time.time() - t_pass, 1)
    if sampler is not None:
        sampler.stop_ev.set()
        sampler.join(timeout=15)
        META["nvidia_smi_after"] = mt.smi("clocks.sm,clocks.mem,power.draw,temperature.gpu")
    flush()
    if RANK == 0:
        print(f"\n================ SUMMARY {TAG} {DEVICE} x{WORLD} ================")
        cats = mt.CATEGORIES + ["comm"]
        print(f"{'config':20s} {'step ms':>8s} {'nosync':>7s} {'1gpu':>7s} {'fwd':>7s} {'bwd':>7s} {'opt':>6s} "
              f"{'GiB':>6s} {'smMin':>5s} {'smMean':>6s} thr | " + " ".join(f"{k[:7]:>7s}" for k in cats))
        for r in RECORDS:
            if r["kind"] != "train_step_dist":
                continue
            p, cc = r["phase_s"], r.get("categories") or {}
            print(f"{r['config']:20s} {r['step_s']['median']*1e3:8.2f} "
                  f"{(r['no_sync_step_s'].get('median') or 0)*1e3:7.2f} "
                  f"{(r['single_gpu_baseline_step_s'].get('median') or 0)*1e3:7.2f} "
                  f"{p['forward_loss']*1e3:7.2f} {p['backward']*1e3:7.2f} {p['optimizer']*1e3:6.2f} "
                  f"{r['peak_mem_gib']:6.2f} {r['sm_clock_min_mhz'] or 0:5.0f} {r['sm_clock_mean_mhz'] or 0:6.0f} "
                  f"{'Y' if r['power_throttled'] else 'n':>3s} | " +
                  " ".join(f"{cc[k]['per_step_ms']:7.2f}" if k in cc else f"{'-':>7s}" for k in cats))
        print("errors:", len(META["errors"]), " skipped:", META["skipped"])
        for e in META["errors"]:
            print(e["where"], e["trace"][-800:])
        log("total wall", round(time.time() - T_START, 1), "s")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
