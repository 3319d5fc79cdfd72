"""NCCL collective timings through torch.distributed, nccl-tests style, for hwsim.

Launch (device machine, repo root), one process per GPU:
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    torchrun --nproc_per_node=2 scripts/measure/measure_collectives.py OUTFILE [mode]
  mode: "full" (default): a `device` record, then every op at 16 sizes with loop timing,
        then every op with CUDA-graph timing;
        "graph_rest": graph timing of all_gather(list), all_to_all, broadcast, sendrecv_0to1,
        sendrecv_bidir only (the ops the first recorded run, whose "full" mode graph-timed only
        all_reduce fp32/bf16, all_gather_into_tensor and reduce_scatter_tensor, left out);
        "variant": all_reduce fp32 only, loop and graph timing, for a launch with NCCL_ALGO /
        NCCL_PROTO forced through the environment (recorded in `variant`, `algo`, `proto`);
        "tuning": one untimed call per (op, size) after a marker line "@@TUNING_CALL ...", to be
        run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING so that NCCL logs its choice;
        "gather_scatter": all_gather_into_tensor and reduce_scatter_tensor, fp32, graph timing;
        "chain": K back-to-back bf16 all_reduces of 8/16/64 KiB in one graph, K = 1..320
        (kind "collective_chain"; see chain()).
  --cpu as last argument: gloo on CPU with host timers and small sizes (logic test only).

Rank 0 appends one JSON object per line to OUTFILE after every measurement, so a run that
is stopped still leaves its data. Conventions follow nccl-tests:
  bytes  = all_reduce/broadcast: the per-rank buffer; all_gather: total OUTPUT;
           reduce_scatter, all_to_all: total INPUT per rank; sendrecv: the message;
           sendrecv_bidir: the message in EACH direction (both ranks send and receive).
  algbw  = bytes / seconds / 1e9
  busbw  = algbw * (all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all (n-1)/n;
           broadcast, sendrecv, sendrecv_bidir 1)
  seconds = per-call time: `iters` calls are enqueued back to back between two CUDA events
           (timing "loop") or captured in one CUDA graph and replayed between two events
           (timing "graph"); this is repeated `reps` times (ranks aligned by a barrier before
           each rep) and the median per rank is taken; `seconds` is the larger of the ranks'
           medians (`seconds_per_rank` has both).
"""
import datetime, json, os, statistics, subprocess, sys, time, traceback
import torch
import torch.distributed as dist

CPU = "--cpu" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--cpu"]
OUTFILE = ARGS[0] if ARGS else "collectives.jsonl"
MODE = ARGS[1] if len(ARGS) > 1 else "full"
DEVICE_ID = os.environ.get("HWSIM_DEVICE_ID", "h200_x2_nvlink")  # the lent host; x4 runs set h200_x4_nvswitch
T0 = time.time()

rank = int(os.environ.get("RANK", "0"))
world = int(os.environ.get("WORLD_SIZE", "1"))
local = int(os.environ.get("LOCAL_RANK", "0"))
if CPU:
    dev = torch.device("cpu")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=120))
else:
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    kw = dict(timeout=datetime.timedelta(seconds=180))
    try:
        dist.init_process_group("nccl", device_id=dev, **kw)
    except TypeError:
        dist.init_process_group("nccl", **kw)
n = dist.get_world_size()
peer = (rank + 1) % n

ALGO = os.environ.get("NCCL_ALGO", "default")
PROTO = os.environ.get("NCCL_PROTO", "default")
VARIANT = "default" if ALGO == PROTO == "default" else f"NCCL_ALGO={ALGO};NCCL_PROTO={PROTO}"

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
SIZES = sorted(set([KiB * 4 ** k for k in range(11)] + [8 * KiB, 128 * KiB, 2 * MiB, 32 * MiB, 512 * MiB]))
if CPU:
    SIZES = [s for s in SIZES if s <= 4 * MiB]
BUSF = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n,
        "all_to_all": (n - 1) / n, "broadcast": 1.0, "sendrecv_0to1": 1.0, "sendrecv_bidir": 1.0}
DT = {"fp32": torch.float32, "bf16": torch.bfloat16}
NREC = 0


def log(*a):
    if rank == 0:
        print(f"[coll {VARIANT} {time.time() - T0:6.1f}s]", *a, flush=True)


def emit(r):
    global NREC
    if rank == 0:
        with open(OUTFILE, "a") as f:
            f.write(json.dumps(r) + "\n")
    NREC += 1


def iters_reps(nbytes):
    if nbytes <= 16 * MiB:
        return 50, 9
    if nbytes <= 256 * MiB:
        return 10, 5
    return 5, 3


# ----------------------------------------------------------------------------- timers
class Timer:
    def __init__(self):
        if CPU:
            self.t = None
        else:
            self.a = torch.cuda.Event(enable_timing=True)
            self.b = torch.cuda.Event(enable_timing=True)

    def start(self):
        if CPU:
            self.t = time.perf_counter()
        else:
            self.a.record()

    def stop(self):
        if CPU:
            return time.perf_counter() - self.t
        self.b.record()
        self.b.synchronize()
        return self.a.elapsed_time(self.b) / 1e3


def sync():
    if not CPU:
        torch.cuda.synchronize()


def gather_float(x):
    """Every rank's float, on every rank (list in rank order). Uses all_reduce, which every
    NCCL_ALGO setting allows (NCCL_ALGO=Tree leaves all_gather with no algorithm)."""
    t = torch.zeros(n, dtype=torch.float64, device=dev)
    t[rank] = float(x)
    dist.all_reduce(t)
    return t.tolist()


def time_loop(call, iters, reps, warm=3, refill=None):
    for _ in range(warm):
        call()
    sync()
    ts = []
    tm = Timer()
    for _ in range(reps):
        if refill:
            refill()
        sync()
        dist.barrier()
        tm.start()
        for _ in range(iters):
            call()
        ts.append(tm.stop() / iters)
    return ts


def time_graph(call, iters, reps, refill=None):
    # call() has already run eagerly (communicator and buffers initialised)
    sync()
    dist.barrier()
    time.sleep(0.2)  # let the NCCL watchdog drop finished work before capture
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, capture_error_mode="thread_local"):
        for _ in range(iters):
            call()
    sync()
    g.replay()
    sync()
    ts = []
    tm = Timer()
    for _ in range(reps):
        if refill:
            refill()
        sync()
        dist.barrier()
        tm.start()
        g.replay()
        ts.append(tm.stop() / iters)
    del g
    return ts


# ----------------------------------------------------------------------------- ops
def make_case(op, api, nbytes, dtype):
    """Return (call, refill, check) for one op at one size; buffers allocated here."""
    dt = DT[dtype]
    es = torch.tensor([], dtype=dt).element_size()
    ne = nbytes // es
    gen = torch.Generator(device=dev)
    gen.manual_seed(1234 + rank)

    def rnd(m):
        return torch.empty(m, dtype=dt, device=dev).normal_(generator=gen)

    if op == "all_reduce":
        x = rnd(ne)

        def call():
            dist.all_reduce(x)

        def check():
            ref = [torch.full((4,), float(r + 1), dtype=dt, device=dev) for r in range(n)]
            x[:4].copy_(ref[rank])
            dist.all_reduce(x)
            return abs(x[:4].float().mean().item() - sum(range(1, n + 1)))

        return call, (lambda: x.normal_(generator=gen)), check
    if op == "broadcast":
        x = rnd(ne)

        def call():
            dist.broadcast(x, src=0)

        def check():
            x[:4].fill_(float(rank + 7))
            dist.broadcast(x, src=0)
            return abs(x[:4].float().mean().item() - 7.0)

        return call, None, check
    if op == "all_gather":
        inp = rnd(ne // n)
        if api == "all_gather_into_tensor":
            out = torch.empty(ne, dtype=dt, device=dev)

            def call():
                dist.all_gather_into_tensor(out, inp)

            def view(r):
                return out[r * (ne // n):(r + 1) * (ne // n)]
        else:
            outs = [torch.empty(ne // n, dtype=dt, device=dev) for _ in range(n)]

            def call():
                dist.all_gather(outs, inp)

            def view(r):
                return outs[r]

        def check():
            inp.fill_(float(rank + 1))
            call()
            e = max(abs(view(r)[:4].float().mean().item() - (r + 1)) for r in range(n))
            inp.normal_(generator=gen)
            return e

        return call, None, check
    if op == "reduce_scatter":
        inp = rnd(ne)
        out = torch.empty(ne // n, dtype=dt, device=dev)

        def call():
            dist.reduce_scatter_tensor(out, inp)

        def check():
            inp.fill_(float(rank + 1))
            call()
            e = abs(out[:4].float().mean().item() - sum(range(1, n + 1)))
            inp.normal_(generator=gen)
            return e

        return call, None, check
    if op == "all_to_all":
        inp = rnd(ne)
        out = torch.empty(ne, dtype=dt, device=dev)

        def call():
            dist.all_to_all_single(out, inp)

        def check():
            # chunk j of rank r goes to rank j, landing in its chunk r
            ch = ne // n
            for j in range(n):
                inp[j * ch:(j + 1) * ch].fill_(float(10 * rank + j))
            call()
            e = max(abs(out[r * ch:(r + 1) * ch][:4].float().mean().item() - (10 * r + rank)) for r in range(n))
            inp.normal_(generator=gen)
            return e

        return call, None, check
    if op == "sendrecv_0to1":
        x = rnd(ne)

        def call():
            if rank == 0:
                dist.isend(x, 1).wait()
            elif rank == 1:
                dist.irecv(x, 0).wait()

        def check():
            if rank == 0:
                x[:4].fill_(5.0)
            call()
            e = abs(x[:4].float().mean().item() - 5.0) if rank == 1 else 0.0
            return e

        return call, None, check
    if op == "sendrecv_bidir":
        s = rnd(ne)
        r_ = torch.empty(ne, dtype=dt, device=dev)

        def call():
            ops = [dist.P2POp(dist.isend, s, peer), dist.P2POp(dist.irecv, r_, (rank - 1) % n)]
            for w in dist.batch_isend_irecv(ops):
                w.wait()

        def check():
            s[:4].fill_(float(rank + 1))
            call()
            e = abs(r_[:4].float().mean().item() - ((rank - 1) % n + 1))
            s.normal_(generator=gen)
            return e

        return call, None, check
    raise ValueError(op)


def run_case(op, api, nbytes, dtype, timings):
    iters, reps = iters_reps(nbytes)
    base = dict(kind="collective", device=DEVICE_ID, op=op, api=api, bytes=nbytes, n=n, dtype=dtype,
                variant=VARIANT, algo=ALGO, proto=PROTO)
    try:
        call, refill, check = make_case(op, api, nbytes, dtype)
        call()
        sync()
        err = max(gather_float(check()))
        for timing in timings:
            if timing == "loop":
                ts = time_loop(call, iters, reps, refill=refill)
            else:
                ts = time_graph(call, iters, reps, refill=refill)
            med = statistics.median(ts)
            per_rank = gather_float(med)
            mins, maxs = gather_float(min(ts)), gather_float(max(ts))
            sec = max(per_rank)
            algbw = nbytes / sec / 1e9
            emit(dict(base, seconds=sec, algbw=algbw, busbw=algbw * BUSF[op], timing=timing,
                      iters=iters, reps=reps, tmin=min(mins), tmax=max(maxs),
                      seconds_per_rank=per_rank, check_abs_err=err))
            log(f"{op:15s} {api:24s} {dtype} {timing:5s} {nbytes:>11d} B  {sec*1e6:10.2f} us  "
                f"busbw {algbw*BUSF[op]:7.2f} GB/s  (check err {err:.1e})")
        del call, refill, check
    except Exception:
        tb = traceback.format_exc()
        log(f"ERROR {op} {api} {nbytes} {dtype}:\n{tb}")
        emit(dict(base, kind="collective_error", timings=timings, trace=tb[-2000:]))
    if not CPU:
        torch.cuda.empty_cache()


def smi_text(args):
    try:
        p = subprocess.run(["nvidia-smi"] + args, capture_output=True, text=True, timeout=30)
        return p.stdout + (p.stderr if p.returncode else "")
    except Exception as e:  # noqa
        return f"failed: {e!r}"


def parse_nvlink(text):
    """nvidia-smi nvlink -s: per GPU, [link speeds GB/s] (inactive links omitted)."""
    gpus, cur = [], None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("GPU "):
            cur = []
            gpus.append(cur)
        elif s.startswith("Link ") and cur is not None and "GB/s" in s:
            try:
                cur.append(float(s.split(":", 1)[1].split("GB/s")[0].strip()))
            except ValueError:
                pass
    return gpus


def device_record():
    r = dict(kind="device", device=DEVICE_ID, n=n, torch=torch.__version__, backend=dist.get_backend(),
             python=sys.version.split()[0], date=datetime.datetime.utcnow().isoformat() + "Z",
             env={k: os.environ.get(k) for k in ["NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST",
                                                 "NVSHMEM_DISABLE_NVLS", "NCCL_ALGO", "NCCL_PROTO"]})
    if not CPU:
        try:
            r["nccl"] = ".".join(map(str, torch.cuda.nccl.version()))
        except Exception as e:  # noqa
            r["nccl"] = repr(e)
        r["cuda"] = torch.version.cuda
        r["gpus"] = [dict(index=i, name=torch.cuda.get_device_properties(i).name,
                          sms=torch.cuda.get_device_properties(i).multi_processor_count,
                          mem_bytes=torch.cuda.get_device_properties(i).total_memory)
                     for i in range(torch.cuda.device_count())]
        q = smi_text(["--query-gpu=index,name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,"
                      "clocks.mem,power.limit", "--format=csv"])
        r["nvidia_smi_query"] = q
        r["driver"] = q.splitlines()[1].split(",")[2].strip() if len(q.splitlines()) > 1 else None
        r["topo_m"] = smi_text(["topo", "-m"])
        nv = smi_text(["nvlink", "-s"])
        r["nvlink_s"] = nv
        sp = parse_nvlink(nv)
        r["nvlink_active_links_per_gpu"] = [len(g) for g in sp]
        r["nvlink_link_GBps_per_gpu"] = [sorted(set(g)) for g in sp]
        r["nvlink_total_GBps_per_gpu"] = [round(sum(g), 3) for g in sp]
        r["p2p_access"] = torch.cuda.can_device_access_peer(0, 1) if torch.cuda.device_count() > 1 else None
    return r


PLAN_LOOP = [("all_reduce", "all_reduce", "fp32"), ("all_reduce", "all_reduce", "bf16"),
             ("all_gather", "all_gather_into_tensor", "fp32"), ("all_gather", "all_gather(list)", "fp32"),
             ("reduce_scatter", "reduce_scatter_tensor", "fp32"), ("all_to_all", "all_to_all_single", "fp32"),
             ("broadcast", "broadcast", "fp32"), ("sendrecv_0to1", "isend/irecv", "fp32"),
             ("sendrecv_bidir", "batch_isend_irecv", "fp32")]
PLAN_GRAPH = PLAN_LOOP[:3] + PLAN_LOOP[4:5]   # graph-timed in the first run
PLAN_GRAPH_REST = [p for p in PLAN_LOOP if p not in PLAN_GRAPH]  # graph-timed in the second run


def tuning():
    """One call per (op, size), untimed, each preceded by a marker line on rank 0: run with
    NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING to log NCCL's algorithm/protocol choice per call."""
    for op, api, dtype in PLAN_LOOP[:3] + PLAN_LOOP[4:5] + PLAN_LOOP[6:7]:
        for s in SIZES:
            try:
                call, refill, check = make_case(op, api, s, dtype)
                sync()
                dist.barrier()
                sync()
                if rank == 0:
                    print(f"@@TUNING_CALL op={op} api={api} dtype={dtype} bytes={s}", flush=True)
                call()
                sync()
                dist.barrier()
                del call, refill, check
            except Exception:
                log(f"ERROR tuning {op} {s}:\n{traceback.format_exc()}")


def chain():
    """K all_reduces (sum, bf16) of one buffer back to back, in one CUDA graph, for K in
    1..320 and 8/16/64 KiB: kind "collective_chain", seconds = one replay (all K), seconds_per_call.
    data "random": the buffer is refilled with N(0,1) before each replay, so the sums double
    each call and pass the bf16 range after about 128 calls; data "zeros": zero-filled."""
    for nbytes in [8 * KiB, 16 * KiB, 64 * KiB]:
        for data in ["random", "zeros"]:
            for K in [1, 16, 50, 64, 128, 160, 320]:
                try:
                    cdt = torch.float32 if CPU else torch.bfloat16  # gloo has no bf16
                    x = torch.empty(nbytes // torch.tensor([], dtype=cdt).element_size(), dtype=cdt, device=dev)
                    refill = (lambda: x.normal_()) if data == "random" else (lambda: x.zero_())
                    refill()
                    dist.all_reduce(x)
                    sync()
                    ts = (time_graph if not CPU else time_loop)(lambda: dist.all_reduce(x), K, 15, refill=refill)
                    per = gather_float(statistics.median(ts) * K)
                    sec = max(per)
                    emit(dict(kind="collective_chain", device=DEVICE_ID, op="all_reduce", api="all_reduce",
                              bytes=nbytes, n=n, dtype="bf16", count=K, data=data, timing="graph" if not CPU else "loop",
                              seconds=sec, seconds_per_call=sec / K, reps=15, seconds_per_rank=per,
                              variant=VARIANT, algo=ALGO, proto=PROTO))
                    log(f"chain all_reduce bf16 {nbytes:>6d} B x{K:4d} {data:6s}: {sec*1e6:9.1f} us, "
                        f"{sec/K*1e6:6.2f} us/call")
                except Exception:
                    log(f"ERROR chain {nbytes} {data} {K}:\n{traceback.format_exc()}")


def main():
    log(f"world={n} mode={MODE} sizes={len(SIZES)} out={OUTFILE}")
    cpu_ok = (lambda op, api: not (CPU and (op in ("reduce_scatter", "all_to_all") or api == "all_gather_into_tensor")))
    if MODE == "full":  # loop timing of every op, then graph timing of every op
        if rank == 0:
            emit(device_record())
        dist.barrier()
        for op, api, dtype in PLAN_LOOP:
            if cpu_ok(op, api):
                for s in SIZES:
                    run_case(op, api, s, dtype, ["loop"])
        if not CPU:
            for op, api, dtype in PLAN_GRAPH + PLAN_GRAPH_REST:
                for s in SIZES:
                    run_case(op, api, s, dtype, ["graph"])
    elif MODE == "graph_rest":  # graph timing of the ops the first run timed only in a loop
        for op, api, dtype in PLAN_GRAPH_REST:
            if not CPU:
                for s in SIZES:
                    run_case(op, api, s, dtype, ["graph"])
    elif MODE == "tuning":
        tuning()
    elif MODE == "chain":
        chain()
    elif MODE == "gather_scatter":  # all_gather and reduce_scatter (tensor APIs), fp32, graph timing
        for op, api, dtype in (PLAN_LOOP[2], PLAN_LOOP[4]):
            for s in SIZES:
                run_case(op, api, s, dtype, ["graph"])
    else:  # variant: all_reduce fp32, loop and graph (NCCL_ALGO / NCCL_PROTO from the environment)
        for s in SIZES:
            run_case("all_reduce", "all_reduce", s, "fp32", ["loop"] if CPU else ["loop", "graph"])
    sync()
    dist.barrier()
    log(f"done, {NREC} records, {time.time() - T0:.1f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
