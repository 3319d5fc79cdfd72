"""Section `fidelity` (H100): contrasts hwsim must get right.

  a  attention backends (SDPA under sdpa_kernel: MATH, FLASH, EFFICIENT, CUDNN), default pick
  b  quantised-weight linear layers (bf16, int4 tinygemm, int4 separate dequant + cuBLAS, int8, fp8)
  c  GEMM alignment (4095 vs 4096, 2-byte-offset base addresses, fp32)
  d  elementwise variants (softmax fused/unfused, GELU erf/tanh, transpose, fill)
  e  power cap: 8192^3 bf16 matmuls and Llama-3-8B prefills back to back, NVML sampled
  f  which kernels the default SDPA runs (torch.profiler), last so CUPTI cannot disturb timings

Case lists are plain Python (exercised by --dry-run); bodies import torch lazily.
"""
import math
import statistics
import time

from common import GiB, MiB, Sampler, choose_iters, nbuf_for, reasons_names, time_graph

ESZ = {"bf16": 2, "fp16": 2, "fp32": 4}
BACKENDS = ["MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION"]
FUSED = BACKENDS[1:]
MATH_MAX_SCORES = 2.2e9      # B*Hq*Sq*Skv elements MATH may materialise (~12 B each with fp32 softmax)
MATH_MAX_GQA_EXPAND = 16e9   # bytes of K/V that MATH's GQA expansion may create
SUB_BUDGETS = dict(attention=65, quant=45, alignment=15, elementwise=12, power=45, profile=8)


def tdt(name):
    import torch
    return {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}[name]


# ============================================================================ a. attention
def attention_cases():
    """(case_id, fields, skip_reason) in priority order."""
    out = []

    def add(group, backend, B, Hq, Hkv, Sq, Skv, causal, dtype, D=128):
        esz = ESZ[dtype]
        f = dict(backend=backend, B=B, Hq=Hq, Hkv=Hkv, S_q=Sq, S_kv=Skv, D=D, causal=causal, dtype=dtype,
                 gqa=Hkv != Hq, group=group,
                 flops=4.0 * B * Hq * Sq * Skv * D * (0.5 if causal else 1.0),
                 bytes=(2 * B * Hq * Sq * D + 2 * B * Hkv * Skv * D) * esz)
        cid = f"attn/{group}/{backend}/B{B}/Hq{Hq}/Hkv{Hkv}/q{Sq}/kv{Skv}/c{int(causal)}/{dtype}"
        skip = None
        if backend == "MATH":
            scores = B * Hq * Sq * Skv
            expand = B * Hq * Skv * D * 2 * esz if Hkv != Hq else 0
            if scores > MATH_MAX_SCORES:
                skip = f"memory: MATH materialises B*Hq*Sq*Skv = {scores:.3g} scores (limit {MATH_MAX_SCORES:.2g})"
            elif expand > MATH_MAX_GQA_EXPAND:
                skip = f"memory: MATH expands GQA K/V to {expand / 1e9:.1f} GB"
        out.append((cid, f, skip))

    # 1. prefill-like, MHA, bf16, all four backends
    for B in (1, 4):
        for S in (512, 1024, 2048, 4096, 8192):
            for causal in (False, True):
                for be in BACKENDS:
                    add("prefill", be, B, 32, 32, S, S, causal, "bf16")
    # 2. decode-like, GQA (Llama-3: 32 query heads, 8 KV heads), bf16
    for kv in (1024, 4096, 8192, 32768):
        for B in (1, 8, 64):
            for be in BACKENDS:
                add("decode_gqa", be, B, 32, 8, 1, kv, False, "bf16")
    # 3. fp32 inputs (MATH and EFFICIENT support them; FLASH/CUDNN are tried to record the refusal)
    for S in (1024, 4096):
        for causal in (False, True):
            for be in BACKENDS:
                add("prefill_fp32", be, 1, 32, 32, S, S, causal, "fp32")
    for be in BACKENDS:
        add("decode_fp32", be, 8, 32, 32, 1, 8192, False, "fp32")
    # 4. prefill with GQA (enable_gqa)
    for B, S, causal in ((1, 2048, True), (1, 8192, True), (4, 4096, False)):
        for be in BACKENDS:
            add("prefill_gqa", be, B, 32, 8, S, S, causal, "bf16")
    # 5. 16384 tokens, fused backends only
    for B in (1, 4):
        for causal in (False, True):
            for be in FUSED:
                add("prefill_16k", be, B, 32, 32, 16384, 16384, causal, "bf16")
    # 6. decode-like, MHA
    for kv in (1024, 8192, 32768):
        for be in BACKENDS:
            add("decode_mha", be, 8, 32, 32, 1, kv, False, "bf16")
    return out


DEFAULT_PICK_SHAPES = [  # (label, B, Hq, Hkv, Sq, Skv, causal)
    ("prefill_mha_causal", 1, 32, 32, 4096, 4096, True),
    ("prefill_gqa", 4, 32, 8, 4096, 4096, False),
    ("decode_gqa", 8, 32, 8, 1, 8192, False),
    ("decode_gqa_small", 1, 32, 8, 1, 1024, False),
]


def default_pick_cases():
    out = []
    for dtype in ("bf16", "fp16", "fp32"):
        for label, B, Hq, Hkv, Sq, Skv, causal in DEFAULT_PICK_SHAPES:
            f = dict(shape=label, B=B, Hq=Hq, Hkv=Hkv, S_q=Sq, S_kv=Skv, D=128, causal=causal, dtype=dtype)
            out.append((f"attn_default/{label}/{dtype}", f))
    return out


BACKEND_BY_VALUE = {-1: "ERROR", 0: "MATH", 1: "FLASH_ATTENTION", 2: "EFFICIENT_ATTENTION",
                    3: "CUDNN_ATTENTION", 4: "OVERRIDEABLE"}


def backend_name(v):
    try:
        from torch.nn.attention import SDPBackend
        for name, member in SDPBackend.__members__.items():
            try:
                if int(member) == int(v):
                    return name
            except Exception:  # noqa: BLE001
                if getattr(member, "value", None) == int(v):
                    return name
    except Exception:  # noqa: BLE001
        pass
    return BACKEND_BY_VALUE.get(int(v), str(v))


def check_free(need_bytes, margin=2 * GiB):
    import torch
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    if need_bytes + margin > free:
        raise MemoryError(f"needs ~{need_bytes / GiB:.1f} GiB, {free / GiB:.1f} GiB free")


def attention_body(ctx, f):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dt = tdt(f["dtype"])
    B, Hq, Hkv, Sq, Skv, D = f["B"], f["Hq"], f["Hkv"], f["S_q"], f["S_kv"], f["D"]
    nb = nbuf_for(f["bytes"], ctx.l2)
    extra = 0
    if f["backend"] == "MATH":
        extra = B * Hq * Sq * Skv * 12 + (B * Hq * Skv * D * 2 * ESZ[f["dtype"]] if f["gqa"] else 0)
    check_free(nb * f["bytes"] + extra)
    qs = [torch.randn(B, Hq, Sq, D, device="cuda", dtype=dt) for _ in range(nb)]
    ks = [torch.randn(B, Hkv, Skv, D, device="cuda", dtype=dt) for _ in range(nb)]
    vs = [torch.randn(B, Hkv, Skv, D, device="cuda", dtype=dt) for _ in range(nb)]
    be = [getattr(SDPBackend, f["backend"])]
    kw = dict(is_causal=f["causal"])
    if f["gqa"]:
        kw["enable_gqa"] = True

    def fn(i):
        with sdpa_kernel(be):
            return F.scaled_dot_product_attention(qs[i], ks[i], vs[i], **kw)

    fn(0)  # a backend that refuses the case raises here, outside any graph
    torch.cuda.synchronize()
    t = time_graph(fn, nb=nb)
    t.update(buffers=nb, tflops=f["flops"] / t["seconds"] / 1e12, tbps=f["bytes"] / t["seconds"] / 1e12)
    return t


def default_pick_body(ctx, f):
    import torch
    dt = tdt(f["dtype"])
    q = torch.randn(f["B"], f["Hq"], f["S_q"], f["D"], device="cuda", dtype=dt)
    k = torch.randn(f["B"], f["Hkv"], f["S_kv"], f["D"], device="cuda", dtype=dt)
    gqa = f["Hkv"] != f["Hq"]
    try:
        v = torch._fused_sdp_choice(q, k, k, attn_mask=None, dropout_p=0.0, is_causal=f["causal"], enable_gqa=gqa)
        how = "_fused_sdp_choice(enable_gqa)"
    except TypeError:
        v = torch._fused_sdp_choice(q, k, k, None, 0.0, f["causal"])
        how = "_fused_sdp_choice"
    return dict(default_backend=backend_name(v), choice_value=int(v), method=how)


def profile_kernels(fn, steps=2):
    """{kernel name: [count, total us]} of CUDA activity over `steps` calls (as measure_llm.py)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
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
    ks = sorted(agg.items(), key=lambda kv: -kv[1][1])
    return [dict(name=n[:200], count_per_call=c / steps, us_per_call=round(us / steps, 2)) for n, (c, us) in ks[:6]]


def default_kernels_body(ctx, f):
    import torch
    import torch.nn.functional as F
    dt = tdt(f["dtype"])
    q = torch.randn(f["B"], f["Hq"], f["S_q"], f["D"], device="cuda", dtype=dt)
    k = torch.randn(f["B"], f["Hkv"], f["S_kv"], f["D"], device="cuda", dtype=dt)
    v = torch.randn_like(k)
    kw = dict(is_causal=f["causal"])
    if f["Hkv"] != f["Hq"]:
        kw["enable_gqa"] = True

    def call():
        F.scaled_dot_product_attention(q, k, v, **kw)

    call()
    return dict(kernels=profile_kernels(call), mode="eager, default SDPA (no sdpa_kernel)")


def run_attention(ctx, sec):
    for cid, f, skip in attention_cases():
        if skip:
            if cid not in sec.done:
                sec.skip("attention_backend", cid, f, skip)
            continue
        sec.run_case("attention_backend", cid, f, lambda f=f: attention_body(ctx, f),
                     fake=lambda f=f: fake_attention(ctx, f))
    for cid, f in default_pick_cases():
        sec.run_case("attention_default", cid, f, lambda f=f: default_pick_body(ctx, f),
                     fake=lambda f=f: dict(default_backend="CUDNN_ATTENTION" if f["dtype"] != "fp32"
                                           else "EFFICIENT_ATTENTION", choice_value=3, method="fake"))


def fake_attention(ctx, f):
    if f["dtype"] == "fp32" and f["backend"] in ("FLASH_ATTENTION", "CUDNN_ATTENTION"):
        ctx.clock.spend(0.05)
        raise RuntimeError("fake: No available kernel. Aborting execution.")
    by = f["bytes"] + (12.0 * f["B"] * f["Hq"] * f["S_q"] * f["S_kv"] if f["backend"] == "MATH" else 0)
    dt = "fp32" if f["dtype"] == "fp32" else "bf16"
    nb = nbuf_for(f["bytes"], ctx.l2)
    t = ctx.fake.timing(f["flops"] / 0.6, by, dt, kernels=1 if f["backend"] != "MATH" else 6, nb=nb)
    t.update(buffers=nb, tflops=f["flops"] / t["seconds"] / 1e12, tbps=f["bytes"] / t["seconds"] / 1e12)
    return t


# ============================================================================ b. quantised weights
QUANT_SHAPES = [(4096, 4096, "o_proj"), (14336, 4096, "gate_up_half"), (4096, 14336, "down"), (6144, 4096, "qkv")]
QUANT_MS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
IMPLS = [  # name, record fields, Ms
    ("bf16", dict(weights="bf16", dequant="none", impl="cublas", act="bf16"), QUANT_MS),
    ("int4_tinygemm", dict(weights="int4", dequant="fused", impl="tinygemm", act="bf16", group_size=128),
     QUANT_MS),
    ("int4_separate", dict(weights="int4", dequant="separate", impl="triton-dequant+cublas", act="bf16",
                           group_size=128), QUANT_MS),
    ("int8_eager", dict(weights="int8", dequant="separate", impl="eager-cast-mul+cublas", act="bf16",
                        scale="per_channel"), QUANT_MS),
    ("int8_int_mm", dict(weights="int8", dequant="none", impl="int_mm", act="int8", out_dtype="int32"),
     [m for m in QUANT_MS if m > 16]),
    ("fp8_scaled_mm", dict(weights="fp8", dequant="none", impl="scaled_mm", act="fp8_e4m3", scale="per_tensor",
                           fast_accum=False, out_dtype="bf16"), QUANT_MS),
    ("int8_weight_int8pack_mm", dict(weights="int8", dequant="fused", impl="weight_int8pack_mm", act="bf16",
                                     scale="per_channel"), [1, 16, 256]),
]
WBITS = {"bf16": 16, "int4": 4, "int8": 8, "fp8": 8}


def quant_fields(M, N, K, layer, base):
    f = dict(M=M, N=N, K=K, layer=layer)
    f.update(base)
    wb = N * K * WBITS[base["weights"]] // 8
    if base["weights"] == "int4":
        wb += (K // 128) * N * 2 * 2
    f["weight_bytes"] = wb
    f["flops"] = 2.0 * M * N * K
    return f


def quant_prepare(ctx, impl, N, K):
    import torch
    import tkernels as tk
    bf = torch.bfloat16
    st = {}
    if impl == "bf16":
        nb = nbuf_for(N * K * 2, ctx.l2)
        st["W"] = [torch.empty(N, K, device="cuda", dtype=bf).normal_(0, 0.02) for _ in range(nb)]
    elif impl == "int4_tinygemm":
        w = torch.empty(N, K, device="cuda", dtype=bf).normal_(0, 0.02)
        q, s, z, wdeq = tk.quantize_int4(w)
        sz = torch.stack([s, z], dim=-1).transpose(0, 1).contiguous()  # [K/128, N, 2]
        errs = []
        packed = None
        for api, arg in (("uint8[N,K/2]", lambda: tk.pack_uint8(q)), ("int32[N,K]", lambda: q.contiguous())):
            try:
                packed = torch._convert_weight_to_int4pack(arg(), 8)
                st["api"] = api
                break
            except Exception as e:  # noqa: BLE001
                errs.append(f"{api}: {type(e).__name__}: {str(e)[:200]}")
        if packed is None:
            raise RuntimeError("_convert_weight_to_int4pack failed: " + " ; ".join(errs))
        x = torch.randn(16, K, device="cuda", dtype=bf)
        y = torch._weight_int4pack_mm(x, packed, 128, sz)
        ref = x @ wdeq.t()
        st["check_rel_err"] = ((y.float() - ref.float()).norm() / ref.float().norm()).item()
        ctx.log(f"  int4 pack api {st['api']}, packed {tuple(packed.shape)} {packed.dtype}, "
                f"tinygemm vs dequantised bf16 rel err {st['check_rel_err']:.2e}")
        nb = nbuf_for(packed.numel() * packed.element_size() + sz.numel() * 2, ctx.l2)
        st["P"] = [packed.clone() for _ in range(nb)]
        st["SZ"] = [sz.clone() for _ in range(nb)]
        st["inner_k_tiles"] = 8
    elif impl == "int4_separate":
        w = torch.empty(N, K, device="cuda", dtype=bf).normal_(0, 0.02)
        q, s, z, wdeq = tk.quantize_int4(w)
        u8 = tk.pack_uint8(q)
        out = torch.empty(N, K, device="cuda", dtype=bf)
        kimpl = "triton" if tk.HAVE_TRITON else "eager"
        err = None
        if kimpl == "triton":
            try:
                tk.dequant_int4(u8, s, z, out, "triton")
                torch.cuda.synchronize()
                err = (out.float() - wdeq.float()).abs().max().item()
                if not err < 1e-2:
                    ctx.log(f"  triton dequant mismatch (max err {err}): using the eager dequant")
                    kimpl = "eager"
            except Exception as e:  # noqa: BLE001
                ctx.log(f"  triton dequant failed ({type(e).__name__}: {str(e)[:200]}): using the eager dequant")
                kimpl = "eager"
        if kimpl == "eager":
            tk.dequant_int4(u8, s, z, out, "eager")
            torch.cuda.synchronize()
            err = (out.float() - wdeq.float()).abs().max().item()
        st["dequant_max_err"] = err
        st["kimpl"] = kimpl
        nb = nbuf_for(u8.numel() + s.numel() * 4, ctx.l2)
        st["U"] = [u8.clone() for _ in range(nb)]
        st["S"] = [s.clone() for _ in range(nb)]
        st["Z"] = [z.clone() for _ in range(nb)]
        st["out"] = out
    elif impl in ("int8_eager", "int8_int_mm", "int8_weight_int8pack_mm"):
        nb = nbuf_for(N * K, ctx.l2)
        st["W8"] = [torch.randint(-127, 128, (N, K), device="cuda", dtype=torch.int8) for _ in range(nb)]
        if impl == "int8_eager":
            st["S"] = [(torch.rand(N, 1, device="cuda") * 0.01 + 1e-3).to(bf) for _ in range(nb)]
        if impl == "int8_weight_int8pack_mm":
            st["S"] = [(torch.rand(N, device="cuda") * 0.01 + 1e-3).to(bf) for _ in range(nb)]
            x = torch.randn(1, K, device="cuda", dtype=bf)
            torch._weight_int8pack_mm(x, st["W8"][0], st["S"][0])  # raises where CUDA has no kernel
    elif impl == "fp8_scaled_mm":
        f8 = torch.float8_e4m3fn
        nb = nbuf_for(N * K, ctx.l2)
        st["W"] = [(torch.randn(N, K, device="cuda") * 0.5).to(f8) for _ in range(nb)]
        st["sa"] = torch.tensor(1.0, device="cuda", dtype=torch.float32)
        st["sb"] = torch.tensor(1.0, device="cuda", dtype=torch.float32)
    return st


def quant_time(ctx, impl, st, M, N, K):
    import torch
    import tkernels as tk
    bf = torch.bfloat16
    extra = {}
    if impl == "bf16":
        W = st["W"]
        nb = len(W)
        x = [torch.randn(M, K, device="cuda", dtype=bf) for _ in range(nb)]
        o = [torch.empty(M, N, device="cuda", dtype=bf) for _ in range(nb)]

        def fn(i):
            torch.matmul(x[i], W[i].t(), out=o[i])
    elif impl == "int4_tinygemm":
        P, SZ = st["P"], st["SZ"]
        nb = len(P)
        x = [torch.randn(M, K, device="cuda", dtype=bf) for _ in range(nb)]

        def fn(i):
            return torch._weight_int4pack_mm(x[i], P[i], 128, SZ[i])
        extra = dict(pack_api=st.get("api"), inner_k_tiles=st.get("inner_k_tiles"),
                     check_rel_err=st.get("check_rel_err"))
    elif impl == "int4_separate":
        U, S, Z, out, kimpl = st["U"], st["S"], st["Z"], st["out"], st["kimpl"]
        nb = len(U)
        x = [torch.randn(M, K, device="cuda", dtype=bf) for _ in range(nb)]
        o = [torch.empty(M, N, device="cuda", dtype=bf) for _ in range(nb)]

        def fn(i):
            tk.dequant_int4(U[i], S[i], Z[i], out, kimpl)
            torch.matmul(x[i], out.t(), out=o[i])
        dq = st.get("dequant_seconds")
        gm = ctx.cache.get(("bf16", M, N, K))
        extra = dict(impl=("triton-dequant+cublas" if kimpl == "triton" else "eager-dequant+cublas"),
                     dequant_seconds=dq, gemm_seconds=gm,
                     parts_sum_seconds=(dq + gm) if (dq is not None and gm is not None) else None,
                     dequant_max_err=st.get("dequant_max_err"),
                     note="seconds = dequant then GEMM in one graph, the bf16 weight buffer reused (as an "
                          "eager temporary would be); dequant_seconds alone (packed weights rotated); "
                          "gemm_seconds = the bf16 case (weights rotated, from HBM)")
    elif impl == "int8_eager":
        W8, S = st["W8"], st["S"]
        nb = len(W8)
        x = [torch.randn(M, K, device="cuda", dtype=bf) for _ in range(nb)]

        def fn(i):
            return torch.matmul(x[i], (W8[i].to(bf) * S[i]).t())
        extra = dict(kernels=3)
    elif impl == "int8_int_mm":
        W8 = st["W8"]
        nb = len(W8)
        x = [torch.randint(-127, 128, (M, K), device="cuda", dtype=torch.int8) for _ in range(nb)]

        def fn(i):
            return torch._int_mm(x[i], W8[i].t())
        extra = dict(note="activations already int8 (their quantisation not timed)")
    elif impl == "int8_weight_int8pack_mm":
        W8, S = st["W8"], st["S"]
        nb = len(W8)
        x = [torch.randn(M, K, device="cuda", dtype=bf) for _ in range(nb)]

        def fn(i):
            return torch._weight_int8pack_mm(x[i], W8[i], S[i])
    elif impl == "fp8_scaled_mm":
        W, sa, sb = st["W"], st["sa"], st["sb"]
        nb = len(W)
        f8 = torch.float8_e4m3fn
        Mp = M
        padded_err = None
        try:
            xt = (torch.randn(M, K, device="cuda") * 0.5).to(f8)
            torch._scaled_mm(xt, W[0].t(), scale_a=sa, scale_b=sb, out_dtype=bf)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001
            padded_err = f"{type(e).__name__}: {str(e)[:200]}"
            Mp = ((M + 15) // 16) * 16
        x = [(torch.randn(Mp, K, device="cuda") * 0.5).to(f8) for _ in range(nb)]

        def fn(i):
            return torch._scaled_mm(x[i], W[i].t(), scale_a=sa, scale_b=sb, out_dtype=bf)
        extra = dict(M_padded=Mp, padded=Mp != M, unpadded_error=padded_err)
    else:
        raise ValueError(impl)
    fn(0)
    torch.cuda.synchronize()
    t = time_graph(fn, nb=nb)
    t["buffers"] = nb
    t.update(extra)
    if impl == "bf16":
        ctx.cache[("bf16", M, N, K)] = t["seconds"]
    return t


def dequant_alone(ctx, st):
    import tkernels as tk
    U, S, Z, out, kimpl = st["U"], st["S"], st["Z"], st["out"], st["kimpl"]

    def fn(i):
        tk.dequant_int4(U[i], S[i], Z[i], out, kimpl)
    t = time_graph(fn, nb=len(U))
    st["dequant_seconds"] = t["seconds"]
    t.update(impl=kimpl, buffers=len(U))
    return t


def run_quant(ctx, sec):
    for N, K, layer in QUANT_SHAPES:
        for impl, base, Ms in IMPLS:
            cases = [(f"quant/{impl}/N{N}/K{K}/M{M}", quant_fields(M, N, K, layer, base)) for M in Ms]
            todo = [c for c in cases if c[0] not in sec.done]
            if not todo:
                continue
            st = None
            budget_out = sec.remaining() <= 1.0
            if not budget_out:
                st = sec.prepare("quant_gemm", f"quant/{impl}/N{N}/K{K}/prepare", dict(N=N, K=K, impl_key=impl),
                                 lambda impl=impl, N=N, K=K: quant_prepare(ctx, impl, N, K),
                                 fake={"dequant_seconds": 1e-5, "kimpl": "triton"})
            if st is not None and impl == "int4_separate":
                byts = N * K // 2 + (K // 128) * N * 4 + N * K * 2
                sec.run_case("quant_dequant", f"quant/dequant_alone/N{N}/K{K}",
                             dict(N=N, K=K, layer=layer, weights="int4", group_size=128, bytes=byts),
                             lambda st=st: dequant_alone(ctx, st),
                             fake=lambda byts=byts, N=N, K=K: ctx.fake.timing(0, byts, nb=nbuf_for(N * K, ctx.l2),
                                                                               impl="triton"))
            budget_out = budget_out or (st is None and sec.remaining() <= 0)
            for cid, f in todo:
                if budget_out:
                    sec.skip("quant_gemm", cid, f, "budget")
                    continue
                if st is None:
                    sec.error("quant_gemm", cid, f, "preparation failed (see the prepare record)")
                    continue
                sec.run_case("quant_gemm", cid, f,
                             lambda impl=impl, st=st, f=f: quant_time(ctx, impl, st, f["M"], f["N"], f["K"]),
                             fake=lambda impl=impl, f=f: fake_quant(ctx, impl, f))
            st = None
            ctx.empty_cache()


def fake_quant(ctx, impl, f):
    if impl == "int8_weight_int8pack_mm":
        ctx.clock.spend(0.02)
        raise RuntimeError("fake: _weight_int8pack_mm has no CUDA kernel")
    M, N, K = f["M"], f["N"], f["K"]
    by = f["weight_bytes"] + M * K * 2 + M * N * 2
    dt = {"int8_int_mm": "int8", "fp8_scaled_mm": "fp8"}.get(impl, "bf16")
    kern = {"int8_eager": 3, "int4_separate": 2}.get(impl, 1)
    if impl == "int4_separate":
        by += N * K * 4.5
    if impl == "int8_eager":
        by += N * K * 8
    t = ctx.fake.timing(f["flops"], by, dt, kernels=kern, nb=nbuf_for(f["weight_bytes"], ctx.l2))
    if impl == "int4_separate":
        t.update(dequant_seconds=N * K * 2.5 / 3e12, gemm_seconds=N * K * 2 / 3e12, parts_sum_seconds=N * K * 4.5 / 3e12,
                 impl="triton-dequant+cublas")
    if impl == "fp8_scaled_mm":
        t.update(M_padded=M, padded=False, unpadded_error=None)
    if impl == "int4_tinygemm":
        t.update(pack_api="uint8[N,K/2]", inner_k_tiles=8, check_rel_err=0.003)
    return t


# ============================================================================ c. alignment
def alignment_cases():
    out = []

    def add(M, N, K, dtype="bf16", offset=0, operand="none"):
        esz = ESZ[dtype]
        f = dict(M=M, N=N, K=K, dtype=dtype, offset_elems=offset, offset_operand=operand,
                 flops=2.0 * M * N * K, bytes=(M * K + N * K + M * N) * esz, layout="x@W^T",
                 aligned=(offset == 0 and K % 8 == 0 and N % 8 == 0 and M % 8 == 0))
        out.append((f"align/{dtype}/M{M}/N{N}/K{K}/off{offset}{operand if offset else ''}", f))

    for base in (4096, 2048, 8192):
        o = base - 1
        for M, N, K in ((base, base, base), (base, base, o), (base, o, base), (o, base, base), (o, o, o)):
            add(M, N, K)
    for M, N, K in ((1000, 1000, 1000), (1001, 1001, 1001), (1000, 1000, 1001), (1000, 1001, 1000), (1001, 1000, 1000)):
        add(M, N, K)
    for M, N, K in ((1, 4096, 4096), (1, 4096, 4095), (1, 4095, 4096), (1, 14336, 4096), (1, 14336, 4095),
                    (16, 4096, 4096), (16, 4096, 4095)):
        add(M, N, K)
    for M, N, K in ((4096, 4096, 4096), (1, 4096, 4096), (64, 4096, 4096)):
        for operand in ("x", "w", "both"):
            add(M, N, K, offset=1, operand=operand)
    for base in (2048, 4096):
        add(base, base, base, "fp32")
        add(base - 1, base - 1, base - 1, "fp32")
    return out


def alignment_body(ctx, f):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    dt = tdt(f["dtype"])
    M, N, K, off = f["M"], f["N"], f["K"], f["offset_elems"]
    op = f["offset_operand"]
    nb = nbuf_for(f["bytes"], ctx.l2)

    def mk(r, c, shift, scale=1.0):
        # a flat buffer of r*c+shift elements; the matrix starts `shift` elements (2 bytes for bf16)
        # past the allocation's 512-byte-aligned base when shift > 0
        flat = torch.randn(r * c + shift, device="cuda", dtype=dt)
        if scale != 1.0:
            flat.mul_(scale)
        return flat[shift:].view(r, c)

    xs = [mk(M, K, off if op in ("x", "both") else 0) for _ in range(nb)]
    ws = [mk(N, K, off if op in ("w", "both") else 0, 0.02) for _ in range(nb)]
    outs = [torch.empty(M, N, device="cuda", dtype=dt) for _ in range(nb)]

    def fn(i):
        torch.matmul(xs[i], ws[i].t(), out=outs[i])

    fn(0)
    t = time_graph(fn, nb=nb)
    t.update(buffers=nb, tflops=f["flops"] / t["seconds"] / 1e12,
             x_ptr_mod16=xs[0].data_ptr() % 16, w_ptr_mod16=ws[0].data_ptr() % 16,
             allow_tf32=bool(torch.backends.cuda.matmul.allow_tf32))
    return t


def run_alignment(ctx, sec):
    for cid, f in alignment_cases():
        sec.run_case("gemm_alignment", cid, f, lambda f=f: alignment_body(ctx, f),
                     fake=lambda f=f: ctx.fake.timing(f["flops"] * (1.0 if f["aligned"] else 1.3), f["bytes"],
                                                      f["dtype"], nb=nbuf_for(f["bytes"], ctx.l2),
                                                      x_ptr_mod16=2 if f["offset_operand"] in ("x", "both") else 0,
                                                      w_ptr_mod16=2 if f["offset_operand"] in ("w", "both") else 0,
                                                      allow_tf32=False))


# ============================================================================ d. elementwise
def elementwise_cases():
    out = []

    def add(op, shape, dtype, kernels=1, traffic=None, **kw):
        n = 1
        for d in shape:
            n *= d
        esz = ESZ[dtype]
        byts = (n * esz) if op == "fill" else 2 * n * esz
        f = dict(op=op, rows=shape[0], cols=shape[1] if len(shape) > 1 else 1, numel=n, dtype=dtype,
                 bytes=byts, kernels=kernels)
        if traffic:
            f["bytes_traffic_eager"] = traffic * n * esz
        f.update(kw)
        out.append((f"elem/{op}/{'x'.join(map(str, shape))}/{dtype}", f))

    for shape in ((4096, 4096), (8192, 8192), (1, 32768), (32768, 1024), (1024, 32768)):
        for dtype in ("bf16", "fp32"):
            add("softmax", shape, dtype)
            add("softmax_unfused5", shape, dtype, kernels=5, traffic=7,
                impl="amax, sub, exp, sum, div (5 eager kernels)")
    for shape in ((4096, 4096), (8192, 8192)):
        for dtype in ("bf16", "fp32"):
            add("gelu_erf", shape, dtype)
            add("gelu_tanh", shape, dtype)
    for shape in ((4096, 4096), (8192, 8192)):
        for dtype in ("bf16", "fp32"):
            add("transpose", shape, dtype, impl="x.t().contiguous()")
    for size in (64 * MiB, GiB):
        for dtype in ("fp32", "bf16"):
            add("fill", (size // ESZ[dtype], 1), dtype, impl="x.fill_(1)", size_bytes=size)
    return out


def elementwise_body(ctx, f):
    import torch
    import torch.nn.functional as F
    dt = tdt(f["dtype"])
    shape = (f["rows"], f["cols"])
    nb = nbuf_for(f["bytes"], ctx.l2)
    if f["op"] == "fill":
        xs = [torch.empty(f["numel"], device="cuda", dtype=dt) for _ in range(nb)]
    else:
        xs = [torch.randn(*shape, device="cuda", dtype=dt) for _ in range(nb)]
    op = f["op"]
    if op == "softmax":
        def fn(i):
            return torch.softmax(xs[i], dim=-1)
    elif op == "softmax_unfused5":
        def fn(i):
            x = xs[i]
            m = torch.amax(x, dim=-1, keepdim=True)
            y = x - m
            y = torch.exp(y)
            s = torch.sum(y, dim=-1, keepdim=True)
            return y / s
    elif op == "gelu_erf":
        def fn(i):
            return F.gelu(xs[i], approximate="none")
    elif op == "gelu_tanh":
        def fn(i):
            return F.gelu(xs[i], approximate="tanh")
    elif op == "transpose":
        def fn(i):
            return xs[i].t().contiguous()
    elif op == "fill":
        def fn(i):
            xs[i].fill_(1)
    else:
        raise ValueError(op)
    fn(0)
    t = time_graph(fn, nb=nb)
    t.update(buffers=nb, tbps=f["bytes"] / t["seconds"] / 1e12)
    return t


def run_elementwise(ctx, sec):
    for cid, f in elementwise_cases():
        sec.run_case("elementwise_op", cid, f, lambda f=f: elementwise_body(ctx, f),
                     fake=lambda f=f: ctx.fake.timing(0, f.get("bytes_traffic_eager", f["bytes"]), f["dtype"],
                                                      kernels=f["kernels"], nb=nbuf_for(f["bytes"], ctx.l2)))


# ============================================================================ e. power cap
POWER_RUNS = [  # label, fields
    ("matmul_bf16_8192", dict(M=8192, N=8192, K=8192, dtype="bf16", flops_per_call=2.0 * 8192 ** 3)),
    ("prefill_llama3_8b_T2048", dict(model="llama3_8b", batch=1, prompt=2048)),
    ("prefill_llama3_8b_T4096", dict(model="llama3_8b", batch=1, prompt=4096)),
    ("prefill_llama3_8b_T8192", dict(model="llama3_8b", batch=1, prompt=8192)),
]
POWER_DUR = 8.0
POWER_IDLE_BEFORE = 1.0
POWER_OVERHEAD = 3.0  # set-up, warm-up, capture per run (estimate)


def make_power_graph(ctx, label, f):
    """(replay, calls_per_replay, info)."""
    import torch
    if label.startswith("matmul"):
        n = f["M"]
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        o = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)

        def step(i=0):
            torch.matmul(a, b.t(), out=o)
        cpr = 4
        info = {}
    else:
        import llama
        m = llama.get_model()
        step, info = llama.step_fn(m, "prefill", f["batch"], f["prompt"])
        cpr = 1
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            step()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(cpr):
            step()
    g.replay()
    torch.cuda.synchronize()
    return g, cpr, info


def power_body(ctx, label, f, dur):
    import torch
    g, cpr, info = make_power_graph(ctx, label, f)
    time.sleep(POWER_IDLE_BEFORE)  # let the clock recover so the start transient is visible
    smp = Sampler(ctx.nvml, 0.05).start()
    time.sleep(0.1)
    evs = []
    t_host0 = time.time()
    first = torch.cuda.Event(enable_timing=True)
    first.record()
    while time.time() - t_host0 < dur:
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        evs.append((a, b))
        if len(evs) > 6:
            evs[-7][1].synchronize()  # at most ~6 replays queued
    torch.cuda.synchronize()
    t_host1 = time.time()
    smp.stop()
    per = [(first.elapsed_time(a) / 1e3, a.elapsed_time(b) / 1e3 / cpr) for a, b in evs]
    del g
    ctx.empty_cache()
    return summarize_power(ctx, f, per, smp, t_host0, t_host1, cpr, info)


def summarize_power(ctx, f, per, smp, t0, t1, cpr, info):
    run = t1 - t0
    start = [d for t, d in per if t < 0.3] or [per[0][1]]
    steady = [d for t, d in per if t >= run / 2] or [per[-1][1]]
    st0 = smp.stats(t0, t0 + 0.3)
    st1 = smp.stats(t0 + run / 2, t1)
    series = []
    b = 0.0
    while b < run:
        ds = [d for t, d in per if b <= t < b + 0.25]
        w = smp.stats(t0 + b, t0 + b + 0.25)
        series.append([round(b, 2), statistics.median(ds) if ds else None, w["median_sm_clock_mhz"],
                       w["sampled_power_w"]])
        b += 0.25
    flops = f.get("flops_per_call") or info.get("flops_per_call")
    mask = 0
    for k in st1["reasons_hist"]:
        mask |= int(k, 16)
    r = dict(run_s=round(run, 3), calls=len(per) * cpr, replays=len(per), calls_per_replay=cpr,
             seconds=statistics.median(steady), seconds_steady_min=min(steady), seconds_steady_max=max(steady),
             seconds_start=statistics.median(start), seconds_first=per[0][1], calls_in_start=len(start) * cpr,
             start_over_steady=statistics.median(start) / statistics.median(steady),
             start_window_s=0.3, steady_window="second half of the run",
             start=st0, steady=st1, steady_reasons=reasons_names(mask),
             throttled_fraction=st1["throttled_fraction"], avg_sm_clock_mhz=st1["avg_sm_clock_mhz"],
             avg_power_w=st1["sampled_power_w"],
             series_cols=["t_s", "seconds_per_call", "sm_clock_mhz", "power_w"], series=series,
             flops_per_call=flops)
    if flops:
        r["tflops_steady"] = flops / r["seconds"] / 1e12
        r["tflops_start"] = flops / r["seconds_start"] / 1e12
    for k in ("linear_flops", "attn_flops", "cache_capacity"):
        if k in info:
            r[k] = info[k]
    return r


def fake_power(ctx, label, f, dur):
    flops = f.get("flops_per_call") or (2.0 * f.get("prompt", 2048) * 7.5e9)
    t_steady = flops / 560e12
    t_start = flops / 700e12
    ctx.clock.spend(POWER_OVERHEAD + POWER_IDLE_BEFORE)
    t0 = ctx.clock.now()
    per = []
    t = 0.0
    while t < dur:
        d = t_start if t < 0.4 else t_steady
        per.append((t, d))
        t += d * (4 if label.startswith("matmul") else 1)
    ctx.clock.spend(dur)
    smp = Sampler(ctx.nvml, 0.05, fake_clock=ctx.clock)
    smp.fake_fill(t0, t0 + 0.4, 1980, 500.0, 0)
    smp.fake_fill(t0 + 0.4, t0 + dur, 1560, 695.0, 0x4)
    return summarize_power(ctx, f, per, smp, t0, t0 + dur, 4 if label.startswith("matmul") else 1,
                           {"flops_per_call": flops})


def run_power(ctx, sec):
    runs = [r for r in POWER_RUNS if f"power/{r[0]}" not in sec.done]
    for i, (label, f) in enumerate(runs):
        left = len(runs) - i
        dur = min(POWER_DUR, (sec.remaining() - (POWER_OVERHEAD + POWER_IDLE_BEFORE) * left) / left)
        cid = f"power/{label}"
        if dur < 2.0:
            sec.skip("power_cap_run", cid, dict(case=label, **f), "budget")
            continue
        sec.run_case("power_cap_run", cid, dict(case=label, target_run_s=round(dur, 2), **f),
                     lambda label=label, f=f, dur=dur: power_body(ctx, label, f, dur),
                     fake=lambda label=label, f=f, dur=dur: fake_power(ctx, label, f, dur))
    if not ctx.dry:
        try:
            import llama
            llama.drop_model()
        except Exception:  # noqa: BLE001
            pass


# ============================================================================ f. default kernels
def run_profile(ctx, sec):
    for dtype in ("bf16", "fp32"):
        for label, B, Hq, Hkv, Sq, Skv, causal in DEFAULT_PICK_SHAPES[:3]:
            f = dict(shape=label, B=B, Hq=Hq, Hkv=Hkv, S_q=Sq, S_kv=Skv, D=128, causal=causal, dtype=dtype)
            sec.run_case("attention_default_kernels", f"attn_kernels/{label}/{dtype}", f,
                         lambda f=f: default_kernels_body(ctx, f),
                         fake=lambda: (ctx.clock.spend(0.4),
                                       dict(kernels=[dict(name="fake_kernel", count_per_call=1, us_per_call=100.0)],
                                            mode="fake"))[1])


# ============================================================================ section
def run(ctx, sec):
    import_time = ctx.clock.now()
    for name, fn in (("attention", run_attention), ("quant", run_quant), ("alignment", run_alignment),
                     ("elementwise", run_elementwise), ("power", run_power), ("profile", run_profile)):
        with sec.sub(name, SUB_BUDGETS[name]):
            fn(ctx, sec)
    return dict(sub_budgets=SUB_BUDGETS, t_sections=round(ctx.clock.now() - import_time, 1))


def case_count():
    n = len(attention_cases()) + len(default_pick_cases())
    n += sum(len(Ms) for _, _, Ms in IMPLS) * len(QUANT_SHAPES) + len(QUANT_SHAPES)
    n += len(alignment_cases()) + len(elementwise_cases()) + len(POWER_RUNS) + 6
    return n


_unused = (math, choose_iters)
