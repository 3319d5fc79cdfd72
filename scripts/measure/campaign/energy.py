"""Section `energy` (H100 and H200): joules per call from NVML's total-energy counter.

Each case: build the work as a CUDA graph, replay it for ~0.6 s (warm-up, steady power), then for
`run_s` (~2.5-4 s, from the budget) with the energy counter read before and after (synchronised),
CUDA events at chunk boundaries, and a background thread sampling SM clock, power, clock-event
reasons and temperature every 25 ms. Where the counter is unsupported the sampled power is
integrated instead (`energy_source`).

Cases run in priority order (idle, bf16 8192, fp8 8192, 4 GiB streams, decode b1/b32/b256,
prefill 2048, then the rest); those the budget leaves out get `skipped` records.
"""
import math
import statistics
import time

from common import GiB, MiB, Sampler, choose_iters, nbuf_for

WARM_S = 0.6
RUN_MIN, RUN_MAX = 2.5, 4.0
CASE_OVERHEAD = 1.2  # build + warm-up + capture per case, besides run_s (estimate)
IDLE_S = 3.0


def energy_cases():
    """(case_id, case, fields) in priority order."""
    C = []

    def add(case, **f):
        C.append((f"energy/{case}", case, f))

    add("idle", what="GPU idle, no work")
    add("idle_after_bump", what="GPU idle right after 0.5 s of 8192^3 bf16 matmuls (clock decay)")
    add("gemm_bf16_8192", op="gemm", M=8192, N=8192, K=8192, dtype="bf16")
    add("gemm_fp8_8192", op="gemm", M=8192, N=8192, K=8192, dtype="fp8_e4m3", impl="scaled_mm", out_dtype="bf16")
    add("hbm_read_4GiB", op="read_sum_fp32", bytes_each=4 * GiB)
    add("hbm_write_4GiB", op="fill_fp32", bytes_each=4 * GiB)
    add("hbm_copy_4GiB", op="copy", bytes_each=4 * GiB)
    for B in (1, 32, 256):
        add(f"decode_llama3_8b_b{B}_ctx1024", op="decode_step", model="llama3_8b", batch=B, context=1024)
    add("prefill_llama3_8b_p2048", op="prefill_step", model="llama3_8b", batch=1, prompt=2048)
    # the rest
    add("gemm_bf16_4096", op="gemm", M=4096, N=4096, K=4096, dtype="bf16")
    add("gemm_bf16_2048", op="gemm", M=2048, N=2048, K=2048, dtype="bf16")
    add("gemm_tf32_8192", op="gemm", M=8192, N=8192, K=8192, dtype="tf32")
    add("gemm_fp32_4096", op="gemm", M=4096, N=4096, K=4096, dtype="fp32")
    add("gemm_fp16_8192", op="gemm", M=8192, N=8192, K=8192, dtype="fp16")
    add("hbm_read_256MiB", op="read_sum_fp32", bytes_each=256 * MiB)
    add("hbm_write_256MiB", op="fill_fp32", bytes_each=256 * MiB)
    add("hbm_copy_256MiB", op="copy", bytes_each=256 * MiB)
    add("l2_copy_8MiB", op="copy", bytes_each=8 * MiB, resident="L2")
    add("l2_read_8MiB", op="read_sum_fp32", bytes_each=8 * MiB, resident="L2")
    add("l2_bound_read_16MiB", op="l2_read_loop", bytes_each=16 * MiB, resident="L2",
        what="one kernel reading a 16 MiB buffer 64 times over (1 GiB from L2 per call)")
    for B in (8, 128):
        add(f"decode_llama3_8b_b{B}_ctx1024", op="decode_step", model="llama3_8b", batch=B, context=1024)
    add("prefill_llama3_8b_p512", op="prefill_step", model="llama3_8b", batch=1, prompt=512)
    for _, _, f in C:
        f.update(per_call_fields(f))
    return C


def per_call_fields(f):
    op = f.get("op")
    if op == "gemm":
        esz = {"bf16": 2, "fp16": 2, "fp8_e4m3": 1, "tf32": 4, "fp32": 4}[f["dtype"]]
        return dict(flops_per_call=2.0 * f["M"] * f["N"] * f["K"],
                    bytes_per_call=(f["M"] * f["K"] + f["N"] * f["K"]) * esz + f["M"] * f["N"] * (2 if esz == 1 else esz))
    if op in ("read_sum_fp32", "fill_fp32"):
        return dict(bytes_per_call=f["bytes_each"])
    if op == "copy":
        return dict(bytes_per_call=2 * f["bytes_each"])
    if op == "l2_read_loop":
        return dict(bytes_per_call=64 * f["bytes_each"])
    return {}


# ----------------------------------------------------------------------------- builders
def graph_of(fn, nb=1, target=0.02):
    """Capture fn(i) calls in one CUDA graph lasting ~target s: (replay, calls_per_replay)."""
    import torch
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for i in range(2):
            fn(i % nb)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    fn(0)
    b.record()
    b.synchronize()
    t = a.elapsed_time(b) / 1e3
    iters = choose_iters(t, nb, target)
    torch.cuda.empty_cache()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(iters):
            fn(i % nb)
    g.replay()
    torch.cuda.synchronize()
    return g, iters


def build(ctx, f):
    """(graph, calls_per_replay, extra fields, keep-alive objects)."""
    import torch
    op = f.get("op")
    keep = []
    extra = {}
    if op == "gemm":
        dt = f["dtype"]
        M, N, K = f["M"], f["N"], f["K"]
        if dt == "fp8_e4m3":
            f8 = torch.float8_e4m3fn
            nb = nbuf_for((M + N) * K, ctx.l2)
            xs = [(torch.randn(M, K, device="cuda") * 0.5).to(f8) for _ in range(nb)]
            ws = [(torch.randn(N, K, device="cuda") * 0.5).to(f8) for _ in range(nb)]
            sa = torch.tensor(1.0, device="cuda")
            sb = torch.tensor(1.0, device="cuda")

            def fn(i):
                return torch._scaled_mm(xs[i], ws[i].t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
            keep += [xs, ws, sa, sb]
        else:
            tdt = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}[dt]
            esz = 2 if dt in ("bf16", "fp16") else 4
            nb = nbuf_for((M + N) * K * esz, ctx.l2)
            xs = [torch.randn(M, K, device="cuda", dtype=tdt) for _ in range(nb)]
            ws = [torch.randn(N, K, device="cuda", dtype=tdt) for _ in range(nb)]
            os_ = [torch.empty(M, N, device="cuda", dtype=tdt) for _ in range(nb)]

            def fn(i):
                torch.matmul(xs[i], ws[i].t(), out=os_[i])
            keep += [xs, ws, os_]
        torch.backends.cuda.matmul.allow_tf32 = (dt == "tf32")
        try:
            g, cpr = graph_of(fn, nb)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False
        extra["buffers"] = nb
    elif op in ("read_sum_fp32", "fill_fp32", "copy"):
        n = f["bytes_each"]
        nb = 1 if f.get("resident") == "L2" else nbuf_for(n * (2 if op == "copy" else 1), ctx.l2, cap=16)
        src = [torch.empty(n // 4, device="cuda", dtype=torch.float32).uniform_() for _ in range(nb)]
        keep.append(src)
        if op == "read_sum_fp32":
            def fn(i):
                return src[i].sum()
        elif op == "fill_fp32":
            def fn(i):
                src[i].fill_(1.0)
        else:
            dst = [torch.empty_like(s) for s in src]
            keep.append(dst)

            def fn(i):
                dst[i].copy_(src[i])
        g, cpr = graph_of(fn, nb)
        extra["buffers"] = nb
    elif op == "l2_read_loop":
        import tkernels as tk
        n = f["bytes_each"] // 4
        x = torch.rand(n, device="cuda")
        nprog = ctx.sms * 8
        passes = max(1, (64 * n) // (nprog * 1024))
        out = torch.empty(max(nprog, 64), device="cuda")
        impl = "triton" if tk.HAVE_TRITON else "torch_expand_sum"
        try:
            tk.l2_read(x, out, passes, impl, nprog)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001
            ctx.log(f"  triton l2 read failed ({type(e).__name__}: {str(e)[:200]}): torch fallback")
            impl = "torch_expand_sum"

        def fn(i):
            tk.l2_read(x, out, passes, impl, nprog)
        keep += [x, out]
        g, cpr = graph_of(fn, 1)
        extra.update(impl=impl, bytes_per_call=(passes * nprog * 1024 * 4) if impl == "triton" else 64 * n * 4)
    elif op in ("decode_step", "prefill_step"):
        import llama
        m = llama.get_model()
        fn, info = llama.step_fn(m, "decode" if op == "decode_step" else "prefill", f["batch"],
                                 f.get("context", f.get("prompt")))
        g, cpr = graph_of(lambda i: fn(), 1, target=0.0)
        extra.update({k: v for k, v in info.items() if k not in ("model", "batch", "context", "prompt")})
        keep.append(m)
    else:
        raise ValueError(op)
    return g, cpr, extra, keep


# ----------------------------------------------------------------------------- measurement
def energy_loop(ctx, g, cpr, run_s):
    import torch
    t0 = time.time()
    while time.time() - t0 < WARM_S:
        g.replay()
        torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    g.replay()
    b.record()
    b.synchronize()
    t_rep = a.elapsed_time(b) / 1e3
    chunk = max(1, int(0.1 / max(t_rep, 1e-6)))
    smp = Sampler(ctx.nvml, 0.025).start()
    time.sleep(0.05)
    torch.cuda.synchronize()
    e0 = ctx.nvml.energy_mj()
    w0 = time.time()
    evs = [torch.cuda.Event(enable_timing=True)]
    evs[0].record()
    reps = 0
    while True:
        for _ in range(chunk):
            g.replay()
        reps += chunk
        e = torch.cuda.Event(enable_timing=True)
        e.record()
        evs.append(e)
        if len(evs) > 3:
            evs[-3].synchronize()  # at most two chunks (~0.2 s) queued
        if time.time() - w0 >= run_s:
            break
    torch.cuda.synchronize()
    w1 = time.time()
    e1 = ctx.nvml.energy_mj()
    time.sleep(0.03)
    smp.stop()
    gpu_s = evs[0].elapsed_time(evs[-1]) / 1e3
    per_chunk = [evs[i].elapsed_time(evs[i + 1]) / 1e3 / (chunk * cpr) for i in range(len(evs) - 1)]
    return summarize(ctx, smp, e0, e1, w0, w1, reps * cpr, gpu_s, per_chunk, chunk * cpr)


def summarize(ctx, smp, e0, e1, w0, w1, calls, gpu_s, per_chunk, calls_per_chunk):
    wall = w1 - w0
    st = smp.stats(w0, w1)
    if e0 is not None and e1 is not None and e1 >= e0:
        ej, src = (e1 - e0) / 1000.0, "counter"
    else:
        ej, src = smp.integrate_j(w0, w1), "integrated"
    r = dict(calls=calls, wall_s=round(wall, 4), gpu_busy_s=round(gpu_s, 4) if gpu_s else None,
             energy_j=ej, energy_source=src, avg_power_w=(ej / wall) if ej is not None else None,
             joules_per_call=(ej / calls) if (ej is not None and calls) else None,
             calls_per_chunk=calls_per_chunk)
    if calls:
        r["seconds"] = statistics.median(per_chunk) if per_chunk else gpu_s / calls
        r["seconds_mean"] = gpu_s / calls
    r.update(st)
    return r


def idle_body(ctx, f, bump):
    import torch
    if bump:
        a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
        t0 = time.time()
        while time.time() - t0 < 0.5:
            for _ in range(4):
                a @ a
            torch.cuda.synchronize()
        del a
    smp = Sampler(ctx.nvml, 0.025).start()
    e0 = ctx.nvml.energy_mj()
    w0 = time.time()
    time.sleep(IDLE_S)
    w1 = time.time()
    e1 = ctx.nvml.energy_mj()
    smp.stop()
    r = summarize(ctx, smp, e0, e1, w0, w1, 0, None, [], 0)
    r["seconds"] = None
    # first / last 0.5 s clocks show the decay after a bump
    r["first_half_s"] = smp.stats(w0, w0 + 0.5)
    r["last_half_s"] = smp.stats(w1 - 0.5, w1)
    return r


def case_body(ctx, f, run_s):
    g, cpr, extra, keep = build(ctx, f)
    r = energy_loop(ctx, g, cpr, run_s)
    r.update(extra)
    if r.get("seconds"):
        fl = f.get("flops_per_call")
        by = extra.get("bytes_per_call", f.get("bytes_per_call"))
        if fl:
            r["tflops"] = fl / r["seconds"] / 1e12
            if r.get("joules_per_call"):
                r["pj_per_flop"] = r["joules_per_call"] / fl * 1e12
        if by:
            r["tbps"] = by / r["seconds"] / 1e12
    del g, keep
    if f.get("op") in ("decode_step", "prefill_step"):
        import llama
        llama.get_model().free_cache()
    ctx.empty_cache()
    return r


# ----------------------------------------------------------------------------- dry-run
def fake_body(ctx, f, run_s, case):
    fk = ctx.fake
    c0 = ctx.clock.now()
    smp = Sampler(ctx.nvml, 0.025, fake_clock=ctx.clock)
    if case.startswith("idle"):
        ctx.clock.spend(IDLE_S + (0.5 if case.endswith("bump") else 0))
        smp.fake_fill(c0, ctx.clock.now(), 345, 75.0, 0x1)
        r = summarize(ctx, smp, 0, int(75 * IDLE_S * 1000), c0, c0 + IDLE_S, 0, None, [], 0)
        r["seconds"] = None
        r["first_half_s"] = smp.stats(c0, c0 + 0.5)
        r["last_half_s"] = smp.stats(c0 + IDLE_S - 0.5, c0 + IDLE_S)
        return r
    op = f.get("op")
    if op in ("decode_step",):
        t = (16.06e9 + 32 * 2 * f["batch"] * 8 * 1025 * 256) / 3.0e12 + 1.5e-3
    elif op == "prefill_step":
        t = 2 * 7.5e9 * f["prompt"] / 560e12 + 1e-3
    else:
        dt = f.get("dtype", "bf16")
        dt = "fp8" if dt == "fp8_e4m3" else dt
        t = fk.seconds(f.get("flops_per_call", 0), f.get("bytes_per_call", 0) / (3 if f.get("resident") else 1), dt)
    ctx.clock.spend(CASE_OVERHEAD + WARM_S)
    w0 = ctx.clock.now()
    ctx.clock.spend(run_s)
    w1 = ctx.clock.now()
    calls = max(1, int(run_s / t))
    smp.fake_fill(w0, w1, 1755, 520.0, 0x4 if op in ("gemm", "prefill_step") else 0)
    r = summarize(ctx, smp, 0, int(520 * run_s * 1000), w0, w1, calls, calls * t, [t] * 10, max(1, calls // 10))
    fl = f.get("flops_per_call")
    if fl:
        r["tflops"] = fl / t / 1e12
        r["pj_per_flop"] = r["joules_per_call"] / fl * 1e12
    if f.get("bytes_per_call"):
        r["tbps"] = f["bytes_per_call"] / t / 1e12
    return r


# ----------------------------------------------------------------------------- section
def run(ctx, sec):
    cases = [c for c in energy_cases()]
    if not ctx.dry:
        time.sleep(1.0)  # settle before the idle case (the previous section may have just ended)
    else:
        ctx.clock.spend(1.0)
    for i, (cid, case, f) in enumerate(cases):
        left = len(cases) - i
        fields = dict(case=case)
        fields.update(f)
        if case.startswith("idle"):
            sec.run_case("energy", cid, fields, lambda f=f, case=case: idle_body(ctx, f, case.endswith("bump")),
                         need_s=IDLE_S + 0.6, fake=lambda f=f, case=case: fake_body(ctx, f, 0, case))
            continue
        rem = sec.remaining()
        run_s = max(RUN_MIN, min(RUN_MAX, (rem - 2.0) / left - CASE_OVERHEAD - WARM_S))
        fields["target_run_s"] = round(run_s, 2)
        sec.run_case("energy", cid, fields, lambda f=f, run_s=run_s: case_body(ctx, f, run_s),
                     need_s=run_s + WARM_S + 0.5, fake=lambda f=f, run_s=run_s, case=case: fake_body(ctx, f, run_s, case))
    if not ctx.dry:
        try:
            import llama
            llama.drop_model()
        except Exception:  # noqa: BLE001
            pass
    return dict(nvml=ctx.nvml.info() if ctx.nvml else None)


_unused = (math,)
