"""Sections `classroom` (H100) and `warp` (H200): the compiled CUDA programs.

classroom: classroom.cu holds CUDA twins of hwsim's teaching kernels (workloads/kernels/*.hwk).
This driver writes the case list (one line per case: id kernel grid block n cols check) to a file,
runs the binary, which times each case (a CUDA graph of >= 20 launches, median of 7 replays) and
prints one JSON line per case, and turns each line into a `classroom` record with the hwsim command
that runs the same case. A binary that dies (a sticky CUDA error) is restarted on the cases left.

warp: runs microbench_shared.cu (a verbatim copy of shared/calibration/methods/microbench.cu) and
converts its JSON lines into records shaped like the shared calibration file's.
"""
import json
import os
import subprocess
import threading
import time

CLASSROOM_BIN = "classroom"
MICROBENCH_BIN = "microbench"


# ============================================================================ classroom
def classroom_cases(chip="h100"):
    """(case_id, fields) in order; fields carry kernel, grid, block, n, cols, check, hwsim_command."""
    out = []

    def add(kernel, grid, block, n=0, cols=0, check=False, args=None, note=None, tile=0):
        cmd = (f"hwsim --chip {chip} --set gpu.core.model=warp --kernel workloads/kernels/{kernel}.hwk "
               f"--grid {grid} --block {block}")
        for k, v in (args or {}).items():
            cmd += f" --arg {k}={v}"
        f = dict(kernel=kernel, grid=grid, block=block, threads=grid * block, check_requested=check,
                 hwsim_command=cmd)
        if n:
            f["n"] = n
        if cols:
            f["cols"] = cols
            f["rows"] = grid
        if note:
            f["note"] = note
        if tile:
            f["tile"] = tile
        cid = f"classroom/{kernel}/g{grid}/b{block}/n{n}/c{cols}"
        out.append((cid, f))

    for n in (64, 128, 256, 512, 1024, 2048):
        add("matmul_naive", (n * n + 255) // 256, 256, n=n, check=(n == 64), args={"n": n})
    for n in (64, 128, 256, 512, 1024, 2048):
        add("matmul_tiled", (n // 16) ** 2, 256, n=n, check=(n == 64), args={"n": n},
            note="16x16 shared tiles as in the .hwk")
    for tile in (8, 32):
        for n in (256, 1024, 2048):
            add("matmul_tiled", (n // tile) ** 2, tile * tile, n=n, check=(n == 256), args={"n": n, "tile": tile},
                tile=tile, note=f"{tile}x{tile} shared tiles (the .hwk with --arg tile={tile})")
    for n in (1 << 20, 1 << 24, 1 << 26):
        for block in (32, 64, 128, 256, 512, 1024):
            add("vector_add", n // block, block, n=n, check=(n == 1 << 20 and block == 256), args={"n": n})
    for rows, cols, chk in ((64, 100, True), (4096, 128, False), (4096, 100, False), (4096, 1024, False),
                            (4096, 4096, False), (1024, 32768, False), (132, 128, False)):
        add("softmax", rows, 32, cols=cols, check=chk, args={"cols": cols})
    for n in (1 << 16, 1 << 20, 1 << 24, 1 << 26):
        add("reduction_shuffle", n // 256, 256, n=n, check=(n == 1 << 16),
            note="n = grid x block (the .hwk sizes x to threads)")
    for block in (32, 64, 128, 512, 1024):
        add("reduction_shuffle", (1 << 24) // block, block, n=1 << 24)
    return out


def case_line(cid, f):
    kernel = f["kernel"] + (str(f["tile"]) if f.get("tile") else "")  # matmul_tiled8 / matmul_tiled32
    return f"{cid} {kernel} {f['grid']} {f['block']} {f.get('n', 0)} {f.get('cols', 0)} {int(f['check_requested'])}"


class BinRunner:
    """Run a binary, collect JSON lines as they come, kill it after `timeout` seconds."""

    def __init__(self, argv, timeout, log):
        self.argv, self.timeout, self.log = argv, timeout, log
        self.lines = []
        self.rc = None
        self.killed = False
        self.stderr = ""

    def run(self, on_line=None):
        p = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        timer = threading.Timer(self.timeout, self._kill, args=(p,))
        timer.start()
        err_chunks = []
        th = threading.Thread(target=lambda: err_chunks.append(p.stderr.read()), daemon=True)
        th.start()
        try:
            for line in p.stdout:
                line = line.strip()
                if not line:
                    continue
                try:
                    obj = json.loads(line)
                except Exception:  # noqa: BLE001
                    self.log("  (binary) " + line[:300])
                    continue
                self.lines.append(obj)
                if on_line:
                    on_line(obj)
            self.rc = p.wait()
        finally:
            timer.cancel()
            th.join(timeout=5)
        self.stderr = "".join(c or "" for c in err_chunks)[-3000:]
        if self.stderr.strip():
            self.log("  (binary stderr) " + self.stderr.strip()[-1500:])
        return self

    def _kill(self, p):
        self.killed = True
        try:
            p.kill()  # the process this driver started, by its handle
        except Exception:  # noqa: BLE001
            pass


def bin_path(ctx, name):
    return os.path.join(ctx.bin_dir, name)


def wait_for_binary(ctx, name, limit=180.0):
    """run.sh compiles in the background and leaves NAME.ok or NAME.fail in the bin folder."""
    ok, fail = bin_path(ctx, name) + ".ok", bin_path(ctx, name) + ".fail"
    t0 = time.time()
    while time.time() - t0 < limit:
        if os.path.exists(ok) and os.path.exists(bin_path(ctx, name)):
            return True, None
        if os.path.exists(fail):
            try:
                return False, open(fail).read()[-1500:]
            except Exception:  # noqa: BLE001
                return False, "compile failed"
        if not os.path.exists(os.path.join(ctx.bin_dir, "compiling")) and os.path.exists(bin_path(ctx, name)):
            return True, None  # compiled by hand, no markers
        time.sleep(0.25)
    return False, f"{name} not built after {limit:.0f} s"


def native_device_info(ctx):
    """The device JSON line of `classroom --device` (name, SMs, L2, memory, clock, versions)."""
    if ctx.dry:
        return None
    ok, why = wait_for_binary(ctx, CLASSROOM_BIN)
    if not ok:
        ctx.log(f"no classroom binary for the device record: {why}")
        return None
    r = BinRunner([bin_path(ctx, CLASSROOM_BIN), "--device"], 60, ctx.log).run()
    for o in r.lines:
        if o.get("kind") == "device":
            return o
    return None


def spin(ctx, seconds):
    """Raise the clocks before the first timed case (the binary's FMA spin kernel)."""
    if ctx.dry:
        ctx.clock.spend(seconds + 0.4)
        return
    ok, _ = wait_for_binary(ctx, CLASSROOM_BIN)
    if ok:
        BinRunner([bin_path(ctx, CLASSROOM_BIN), "--spin", str(seconds)], seconds + 30, ctx.log).run()


def run_classroom(ctx, sec):
    chip = "h200" if "h200" in ctx.device else "h100"
    cases = [(cid, f) for cid, f in classroom_cases(chip) if cid not in sec.done]
    by_id = dict(cases)
    written = set()
    casefile = os.path.join(ctx.state_dir, f"{ctx.tag}_classroom_cases.txt")

    def record(obj):
        cid = obj.get("id")
        if cid not in by_id or cid in written:
            return
        written.add(cid)
        f = dict(by_id[cid])
        if "error" in obj:
            sec.error("classroom", cid, f, "binary: " + str(obj["error"]))
        elif obj.get("skipped"):
            sec.skip("classroom", cid, f, str(obj["skipped"]))
        else:
            r = dict(case_id=cid)
            r.update(f)
            for k in ("seconds", "tmin", "tmax", "launches_per_graph", "reps", "check", "max_err",
                      "bytes", "flops", "t_single_launch"):
                if k in obj:
                    r[k] = obj[k]
            sec.rec("classroom", **r)

    if ctx.dry:
        fake_classroom(ctx, sec, cases, casefile, record)
        return {}
    ok, why = wait_for_binary(ctx, CLASSROOM_BIN)
    if not ok:
        for cid, f in cases:
            sec.error("classroom", cid, f, f"classroom binary unavailable: {why}")
        return {}
    for attempt in range(3):
        left = [(cid, f) for cid, f in cases if cid not in written]
        if not left:
            break
        budget = sec.remaining()
        if budget <= 1.0:
            break
        with open(casefile, "w") as fh:
            for cid, f in left:
                fh.write(case_line(cid, f) + "\n")
        ctx.log(f"classroom binary: {len(left)} cases, budget {budget:.0f} s (attempt {attempt + 1})")
        r = BinRunner([bin_path(ctx, CLASSROOM_BIN), casefile, f"{budget:.1f}"], budget + 20, ctx.log).run(record)
        ctx.log(f"classroom binary exited rc={r.rc} killed={r.killed}")
        if r.rc == 0 or r.killed:
            break
        # a case that killed the binary: the first one without a line
        nxt = next(((cid, f) for cid, f in left if cid not in written), None)
        if nxt:
            written.add(nxt[0])
            sec.error("classroom", nxt[0], nxt[1], f"binary died (rc={r.rc}) in this case: {r.stderr[-300:]}")
    for cid, f in cases:
        if cid not in written:
            sec.skip("classroom", cid, f, "budget")
    return {}


def fake_classroom(ctx, sec, cases, casefile, record):
    """Dry-run: write the case file, let the binary parse it (--parse-only, no GPU) where it was
    built, then fake timings with the binary's own cost model (K launches x 8 replays)."""
    with open(casefile, "w") as fh:
        for cid, f in cases:
            fh.write(case_line(cid, f) + "\n")
    parsed = set()
    b = bin_path(ctx, CLASSROOM_BIN)
    if os.path.exists(b):
        r = BinRunner([b, casefile, "90", "--parse-only"], 60, ctx.log).run()
        parsed = {o.get("id") for o in r.lines if o.get("parsed")}
        ctx.log(f"classroom --parse-only: {len(parsed)}/{len(cases)} cases parsed by the binary (rc={r.rc})")
    else:
        ctx.log("classroom binary not built here: skipping its --parse-only check")
    spin(ctx, 0.5)
    deadline = sec.deadline
    for cid, f in cases:
        if ctx.clock.now() > deadline:
            record({"id": cid, "skipped": "budget"})
            continue
        k = f["kernel"]
        n = f.get("n", 0)
        if k == "matmul_naive":
            t = 2.0 * n ** 3 / 4e12 + 3e-6
        elif k == "matmul_tiled":
            t = 2.0 * n ** 3 / 12e12 + 3e-6
        elif k == "vector_add":
            t = 12.0 * n / 3e12 + 2e-6 + (2e-6 if f["block"] < 128 else 0)
        elif k == "softmax":
            t = 12.0 * f["rows"] * f["cols"] / 2e12 + 3e-6
        else:
            t = 4.0 * n / 3e12 + 2e-6
        K = max(20, min(2000, int(0.02 / t) + 1))
        ctx.clock.spend(0.05 + (5 + K * 8) * t)
        rec = {"id": cid, "seconds": t, "tmin": t * 0.98, "tmax": t * 1.03, "launches_per_graph": K, "reps": 7,
               "check": "ok" if f["check_requested"] else "none", "max_err": 0.0 if f["check_requested"] else None}
        if parsed and cid not in parsed:
            rec = {"id": cid, "error": "not parsed by the binary in --parse-only"}
        record(rec)


# ============================================================================ warp
def convert_microbench(o, dev, clock_mhz):
    """One JSON line of microbench.cu -> records shaped like shared/calibration/h100_calibration.jsonl."""
    k = o.get("kind")
    out = []
    if k == "device":
        r = dict(o)
        r["kind"] = "microbench_device"
        out.append(r)
    elif k in ("bank_conflict", "divergence", "coalescing", "occupancy_bw"):
        r = {key: v for key, v in o.items() if key != "ms"}
        r["seconds"] = o["ms"] / 1e3
        out.append(r)
    elif k == "branch_data":
        for order in ("random", "sorted"):
            out.append(dict(kind="branch_data", order=order, work=512, seconds=o[f"ms_{order}"] / 1e3))
    elif k == "latency":
        r = dict(o)
        r["seconds"] = o["cycles_per_load"] / (clock_mhz * 1e6)
        r["seconds_at_clock_mhz"] = clock_mhz
        out.append(r)
    else:
        r = dict(o)
        r["kind"] = f"microbench_{k}"
        out.append(r)
    for r in out:
        r["device"] = dev
        r["source"] = "microbench_shared.cu"
    return out


FAKE_MICROBENCH = [
    '{"kind":"device","name":"NVIDIA H200","sms":132,"clock_khz":1980000,"l2":62914560,"smem_per_sm":233472}',
    *[f'{{"kind":"bank_conflict","stride_words":{s},"ms":{0.19 * max(1, s if s != 33 else 1) ** 0.9:.5f},'
      f'"warp_accesses":34603008,"one_warp_cycles_per_access":{15.31 + 2 * (min(s, 32) - 1) if s != 33 else 15.31:.2f}}}'
      for s in (1, 2, 4, 8, 16, 32, 33, 64)],
    *[f'{{"kind":"divergence","paths":{d},"work":256,"ms":{0.0189 * d:.5f}}}' for d in (1, 2, 4, 8, 16, 32)],
    '{"kind":"branch_data","ms_random":0.02566,"ms_sorted":0.01786}',
    *[f'{{"kind":"coalescing","stride_words":{s},"threads":16777216,"ms":{0.046 * max(1, s / 2):.5f},'
      f'"useful_GBps":{67108864 / (0.046 * max(1, s / 2)) / 1e6:.1f}}}' for s in (1, 2, 4, 8, 16, 32, 64)],
    *[f'{{"kind":"latency","footprint_kb":{kb},"steps":20000,"cycles_per_load":{c}}}'
      for kb, c in ((8, 38.9), (32, 38.9), (128, 48.4), (512, 283.6), (2048, 282.4), (8192, 282.4), (32768, 282.4),
                    (65536, 600.0), (262144, 700.1), (1048576, 705.2))],
    *[f'{{"kind":"occupancy_bw","warps_per_sm":{w},"ms":{0.5:.4f},"GBps":{4000.0 * min(1, w / 8):.1f}}}'
      for w in (1, 2, 4, 8, 16, 32, 64)],
]


def run_warp(ctx, sec):
    counts = {}
    seq = [0]

    def emit(o, clock_mhz):
        for r in convert_microbench(o, ctx.device, clock_mhz):
            seq[0] += 1
            r.setdefault("case_id", f"warp/{r['kind']}/{seq[0]}")
            counts[r["kind"]] = counts.get(r["kind"], 0) + 1
            sec.write(r)
            sec.counts["records"] += 1

    state = {"clock_mhz": 1980.0}

    def on_line(o):
        if o.get("kind") == "device" and o.get("clock_khz"):
            state["clock_mhz"] = o["clock_khz"] / 1000.0
        emit(o, state["clock_mhz"])

    if ctx.dry:
        ctx.clock.spend(8.0)
        for line in FAKE_MICROBENCH:
            on_line(json.loads(line))
        return dict(kinds=counts)
    ok, why = wait_for_binary(ctx, MICROBENCH_BIN)
    if not ok:
        sec.error("warp", "warp/microbench", {}, f"microbench binary unavailable: {why}")
        return dict(kinds=counts)
    spin(ctx, 1.0)
    budget = max(5.0, sec.remaining())
    r = BinRunner([bin_path(ctx, MICROBENCH_BIN)], budget, ctx.log).run(on_line)
    ctx.log(f"microbench exited rc={r.rc} killed={r.killed}, records by kind {counts}")
    expect = {"bank_conflict": 8, "divergence": 6, "branch_data": 2, "coalescing": 7, "latency": 10, "occupancy_bw": 7}
    missing = {k: v - counts.get(k, 0) for k, v in expect.items() if counts.get(k, 0) < v}
    if r.rc != 0 or r.killed or missing:
        sec.error("warp", "warp/microbench/incomplete", dict(missing=missing),
                  f"rc={r.rc} killed={r.killed} stderr={r.stderr[-300:]}")
    return dict(kinds=counts, clock_mhz_for_latency=state["clock_mhz"])
